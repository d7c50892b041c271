#pragma once
// RNN(cell): runs a recurrent cell (or a stack of cells) over the time axis of [batch, time, features].
// Without a mask, recurrent dropout or non-default activations, each cell runs over the whole
// sequence as one oneDNN RNN primitive (forward and backward); otherwise step by step through
// the cell's ops. LSTM, GRU and SimpleRNN are this layer with their cell.
#include "layers/recurrent/recurrent_cell.hpp"
#include "layers/recurrent/stateful_states.hpp"

namespace keras::layers {

/// The sequence arguments of every recurrent layer (Keras's names and defaults), declared once: RNNOptions
/// and the flat SimpleRNNOptions, LSTMOptions and GRUOptions end with them (then KERAS_LAYER_OPTIONS).
#define KERAS_RNN_SEQUENCE_FIELDS                                  \
  bool return_sequences = false;                                   \
  bool return_state = false;                                       \
  bool go_backwards = false;                                       \
  bool stateful = false; /* keep the states between calls (needs a fixed batch size) */ \
  bool unroll = false;   /* accepted and ignored (no graph to unroll) */                 \
  bool zero_output_for_mask = false; /* a masked step outputs zeros, not the previous output */

struct RNNOptions {
  KERAS_RNN_SEQUENCE_FIELDS
  KERAS_LAYER_OPTIONS
};

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) for each, on one
/// options struct (the config of every recurrent layer) or on two (a flat layer's copied into RNNOptions).
template <class Visit, class... Options>
void for_each_rnn_sequence_field(Visit&& visit, Options&... options) {
  visit("return_sequences", options.return_sequences...);
  visit("return_state", options.return_state...);
  visit("go_backwards", options.go_backwards...);
  visit("stateful", options.stateful...);
  visit("unroll", options.unroll...);
  visit("zero_output_for_mask", options.zero_output_for_mask...);
}

/// Copies a field of one options struct into the same field of another:
/// `for_each_rnn_sequence_field(copy_field, to, from)` copies the group.
inline constexpr auto copy_field = [](const char*, auto& to, const auto& from) { to = from; };

/// The sequence arguments of a flat layer's options struct (SimpleRNNOptions, LSTMOptions, GRUOptions).
template <class Options>
RNNOptions sequence_options_of(const Options& o) {
  RNNOptions sequence{.input_shape = o.input_shape, .name = o.name, .trainable = o.trainable};
  for_each_rnn_sequence_field(copy_field, sequence, o);
  return sequence;
}

class RNN : public Layer {
 public:
  explicit RNN(CellPtr cell, RNNOptions options = {});
  /// Stacked cells (Keras's StackedRNNCells): each cell's output sequence feeds the next.
  explicit RNN(std::vector<CellPtr> cells, RNNOptions options = {});

  void build(const Shape& input_shape) override;
  /// Built for the sequence, the first of {sequence, initial states...}.
  void build(const std::vector<Shape>& input_shapes) override { build(input_shapes.at(0)); }
  /// Called on {sequence, initial states...} (Keras's initial_state passed as extra inputs) under the
  /// sequence's mask: the output, the last one [batch, units] or all of them [batch, time, units] with
  /// return_sequences, then with return_state the final states (LSTM: h, c; stacked cells: every cell's).
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Keras's return_state form: {output, states...}, starting from `initial_state` (one tensor per state;
  /// empty: zeros) under `mask`.
  std::vector<Tensor> call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state = {},
                                      const Tensor& mask = Tensor(), bool training = false);
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  /// The sequence's mask with return_sequences, else none (none for the states).
  Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const override;
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  std::vector<std::shared_ptr<Layer>> sublayers() const override;

  /// stateful=true: the last states of each call start the next one (Keras's stateful RNN).
  bool stateful() const override { return options_.stateful; }
  /// The states back to zero (Keras's reset_states(); a ValueError unless the layer is stateful).
  void reset_states() override;
  /// The states set to `states`, one tensor per state in call_with_state's order (Keras's reset_states(states)).
  void reset_states(const std::vector<Tensor>& states);
  /// The carried states of a stateful layer (Keras's layer.states), empty before it is built.
  const std::vector<Tensor>& states() const { return states_.states(); }

  const std::vector<CellPtr>& cells() const { return cells_; }
  const RNNOptions& rnn_options() const { return options_; }
  std::int64_t units() const { return cells_.back()->units(); }

 protected:
  RNN(std::vector<CellPtr> cells, RNNOptions options, const std::string& prefix);
  /// The sequence fields of every recurrent layer's config.
  json sequence_config() const;
  /// The options a config gives (the field list is in rnn.cpp).
  static RNNOptions options_from_config(const json& config);
  /// LSTM, GRU, SimpleRNN configs: the sequence fields plus the cell's own (Keras writes them flat).
  json flat_config() const;

 private:
  std::vector<Tensor> run(const Tensor& inputs, const std::vector<Tensor>& initial_state, const Tensor& mask,
                          bool training);
  std::vector<Tensor> run_from(const Tensor& inputs, const std::vector<Tensor>& initial_state, const Tensor& mask,
                               bool training);
  std::vector<Tensor> run_stepwise(const Tensor& x, std::vector<std::vector<Tensor>> states, const Tensor& mask,
                                   bool training);

  std::vector<CellPtr> cells_;
  RNNOptions options_;
  StatefulStates states_;  // with stateful=true

  KERAS_LAYER(RNN)
};

}  // namespace keras::layers
