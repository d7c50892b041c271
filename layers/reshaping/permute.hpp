#pragma once
// Permute: reorders the axes after the batch axis; `dims` is a permutation of 1..rank-1 (Keras's indexing).
#include "keras/layer.hpp"

namespace keras::layers {

struct PermuteOptions {
  KERAS_LAYER_OPTIONS
};

class Permute : public Layer {
 public:
  explicit Permute(std::vector<int> dims, PermuteOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::vector<int> dims_;

  KERAS_LAYER(Permute)
};

}  // namespace keras::layers
