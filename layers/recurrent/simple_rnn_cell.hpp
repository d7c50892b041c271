#pragma once
// SimpleRNNCell: h = activation(x @ kernel + bias + h_prev @ recurrent_kernel).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

/// SimpleRNNCell's arguments (Keras's names and defaults), declared once: SimpleRNNCellOptions and
/// SimpleRNN's flat SimpleRNNOptions start with them.
#define KERAS_SIMPLE_RNN_CELL_FIELDS \
  activations::ActivationRef activation = "tanh";   \
  KERAS_RECURRENT_CELL_WEIGHT_FIELDS \
  KERAS_RECURRENT_CELL_DROPOUT_FIELDS

struct SimpleRNNCellOptions {
  KERAS_SIMPLE_RNN_CELL_FIELDS
  KERAS_LAYER_OPTIONS
};

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) for each, on one
/// options struct (SimpleRNNCell's config) or on two (SimpleRNN copying its arguments into its cell's).
template <class Visit, class... Options>
void for_each_simple_rnn_cell_field(Visit&& visit, Options&... options) {
  visit("activation", options.activation...);
  for_each_cell_weight_field(visit, options...);
  for_each_cell_dropout_field(visit, options...);
}

class SimpleRNNCell : public RecurrentCell {
 public:
  explicit SimpleRNNCell(std::int64_t units, SimpleRNNCellOptions options = {});
  std::int64_t units() const override { return units_; }
  std::vector<Tensor> step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& recurrent_mask) override;
  std::optional<kernels::RnnCell> fused_cell() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  /// The options a config gives (the field list is in simple_rnn_cell.cpp).
  static SimpleRNNCellOptions options_from_config(const json& config);
  const SimpleRNNCellOptions& options() const { return options_; }

 protected:
  WeightSpec weight_spec() const override;

 private:
  std::int64_t units_;
  SimpleRNNCellOptions options_;
  activations::Activation activation_;

  KERAS_LAYER(SimpleRNNCell)
};

}  // namespace keras::layers
