#pragma once
// LSTMCell: gates i, f, c, o in Keras's order (oneDNN's too) in kernel [in, 4*units],
// recurrent_kernel [units, 4*units], bias [4*units]; states (h, c).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

/// LSTMCell's arguments (Keras's names and defaults), declared once: LSTMCellOptions and LSTM's flat
/// LSTMOptions start with them.
#define KERAS_LSTM_CELL_FIELDS                  \
  activations::ActivationRef activation = "tanh";              \
  activations::ActivationRef recurrent_activation = "sigmoid"; \
  KERAS_RECURRENT_CELL_WEIGHT_FIELDS            \
  bool unit_forget_bias = true;                 \
  KERAS_RECURRENT_CELL_DROPOUT_FIELDS

struct LSTMCellOptions {
  KERAS_LSTM_CELL_FIELDS
  KERAS_LAYER_OPTIONS
};

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) for each, on one
/// options struct (LSTMCell's config) or on two (LSTM copying its arguments into its cell's).
template <class Visit, class... Options>
void for_each_lstm_cell_field(Visit&& visit, Options&... options) {
  visit("activation", options.activation...);
  visit("recurrent_activation", options.recurrent_activation...);
  for_each_cell_weight_field(visit, options...);
  visit("unit_forget_bias", options.unit_forget_bias...);
  for_each_cell_dropout_field(visit, options...);
}

class LSTMCell : public RecurrentCell {
 public:
  explicit LSTMCell(std::int64_t units, LSTMCellOptions options = {});
  std::int64_t units() const override { return units_; }
  int state_count() const override { return 2; }
  std::vector<Tensor> step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& recurrent_mask) override;
  std::optional<kernels::RnnCell> fused_cell() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  /// The options a config gives (the field list is in lstm_cell.cpp).
  static LSTMCellOptions options_from_config(const json& config);
  const LSTMCellOptions& options() const { return options_; }

 protected:
  WeightSpec weight_spec() const override;

 private:
  std::int64_t units_;
  LSTMCellOptions options_;
  activations::Activation activation_, recurrent_activation_;

  KERAS_LAYER(LSTMCell)
};

}  // namespace keras::layers
