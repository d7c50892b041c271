#pragma once
// Bidirectional(layer): a recurrent layer run forward and, as a copy with go_backwards flipped,
// backward; outputs merged by merge_mode "concat" (default), "sum", "mul", "ave" or "none".
#include "layers/recurrent/rnn.hpp"

namespace keras::layers {

struct BidirectionalOptions {
  std::string merge_mode = "concat";
  KERAS_LAYER_OPTIONS
};

class Bidirectional : public Layer {
 public:
  /// `layer` must be a recurrent layer (LSTM, GRU, SimpleRNN, RNN); its config makes both directions.
  explicit Bidirectional(const LayerRef& layer, BidirectionalOptions options = {});
  void build(const Shape& input_shape) override;
  /// Built for the sequence, the first of {sequence, initial states...}.
  void build(const std::vector<Shape>& input_shapes) override { build(input_shapes.at(0)); }
  /// Called on {sequence, initial states...} (initial_state as extra inputs, as Keras records it) under the
  /// sequence's mask; every output: {output} ({forward, backward} with merge_mode "none"), then the states
  /// with return_state.
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Both directions, unmerged (what merge_mode "none" returns in Keras), backward sequences
  /// re-reversed so step t of both lines up.
  std::vector<Tensor> call_both(const Tensor& inputs, const Tensor& mask = Tensor(), bool training = false);
  /// Keras's initial_state and return_state: starts the forward layer from the first half of
  /// `initial_state` and the backward layer from the second half (empty: zeros), and returns
  /// {output, forward states..., backward states...} ({forward, backward, states...} with merge_mode "none").
  std::vector<Tensor> call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state = {},
                                      const Tensor& mask = Tensor(), bool training = false);
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  std::vector<std::shared_ptr<Layer>> sublayers() const override { return {forward_, backward_}; }

  /// The wrapped layer's stateful: each direction carries its own states.
  bool stateful() const override { return forward_->stateful(); }
  /// Both directions' states back to zero.
  void reset_states() override;
  /// The forward layer's states from the first half of `states`, the backward layer's from the second half.
  void reset_states(const std::vector<Tensor>& states);

  const std::shared_ptr<RNN>& forward_layer() const { return forward_; }
  const std::shared_ptr<RNN>& backward_layer() const { return backward_; }

 private:
  /// The merged output, or both directions with merge_mode "none".
  std::vector<Tensor> merged_outputs(const Tensor& forward, Tensor backward) const;
  std::shared_ptr<const json> layer_config_;  // the wrapped layer's config (immutable, shared by copies)
  std::string layer_class_;
  std::string merge_mode_;
  std::shared_ptr<RNN> forward_, backward_;

  KERAS_LAYER(Bidirectional)
};

}  // namespace keras::layers
