#pragma once
// GRUCell: gates z, r, h in Keras's order (oneDNN's u, r, o) in kernel [in, 3*units] and
// recurrent_kernel [units, 3*units]; bias [3*units], or [2, 3*units] (input, recurrent) with
// reset_after (the tf2 default, oneDNN's linear-before-reset GRU).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

/// GRUCell's arguments (Keras's names and defaults), declared once: GRUCellOptions and GRU's flat
/// GRUOptions start with them (reset_after before the dropouts, as GRUOptions always had it).
#define KERAS_GRU_CELL_FIELDS                   \
  activations::ActivationRef activation = "tanh";              \
  activations::ActivationRef recurrent_activation = "sigmoid"; \
  KERAS_RECURRENT_CELL_WEIGHT_FIELDS            \
  bool reset_after = true;                      \
  KERAS_RECURRENT_CELL_DROPOUT_FIELDS

struct GRUCellOptions {
  KERAS_GRU_CELL_FIELDS
  KERAS_LAYER_OPTIONS
};

/// Those fields under Keras's keys, listed once: calls visit(key, options.field...) for each, on one
/// options struct (GRUCell's config) or on two (GRU copying its arguments into its cell's).
template <class Visit, class... Options>
void for_each_gru_cell_field(Visit&& visit, Options&... options) {
  visit("activation", options.activation...);
  visit("recurrent_activation", options.recurrent_activation...);
  for_each_cell_weight_field(visit, options...);
  visit("reset_after", options.reset_after...);
  for_each_cell_dropout_field(visit, options...);
}

class GRUCell : public RecurrentCell {
 public:
  explicit GRUCell(std::int64_t units, GRUCellOptions options = {});
  std::int64_t units() const override { return units_; }
  std::vector<Tensor> step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& recurrent_mask) override;
  std::optional<kernels::RnnCell> fused_cell() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  /// The options a config gives (the field list is in gru_cell.cpp).
  static GRUCellOptions options_from_config(const json& config);
  const GRUCellOptions& options() const { return options_; }

 protected:
  WeightSpec weight_spec() const override;

 private:
  std::int64_t units_;
  GRUCellOptions options_;
  activations::Activation activation_, recurrent_activation_;

  KERAS_LAYER(GRUCell)
};

}  // namespace keras::layers
