#pragma once
// Keras's stateful=True for recurrent layers: the states a layer carries from one call (one batch) to
// the next. They start at zero when the layer is built, which needs a known batch size; reset() puts
// them back to zero, reset(values) sets them. Sample i of a batch continues sample i of the previous
// one. As in tf.keras they are neither weights nor saved, and no gradient flows from one call into the
// previous one (truncated backpropagation through time).
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::layers {

class StatefulStates {
 public:
  /// At build: `shapes` are the states' shapes, batch first. Throws a ValueError naming `layer` (as
  /// "Layer \"lstm\" (LSTM)") unless the batch size is known; the states start at zero.
  void build(const std::string& layer, const std::vector<Shape>& shapes);
  bool built() const { return !shapes_.empty(); }
  /// Every state back to zero.
  void reset();
  /// Sets the states to `values` (one per state, each of its shape).
  void reset(const std::vector<Tensor>& values);
  /// The states a call of `batch` samples starts from (a ValueError when the batch size differs).
  const std::vector<Tensor>& current(std::int64_t batch) const;
  /// Keeps the final states of a call (cut from the tape).
  void update(const std::vector<Tensor>& final_states);
  const std::vector<Tensor>& states() const { return states_; }
  std::int64_t batch_size() const { return shapes_.empty() ? -1 : shapes_.front().front(); }

 private:
  std::string layer_;
  std::vector<Shape> shapes_;
  std::vector<Tensor> states_;
};

}  // namespace keras::layers
