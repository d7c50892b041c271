#pragma once
// GRUCell: gates z, r, h in Keras's order (oneDNN's u, r, o) in kernel [in, 3*units] and
// recurrent_kernel [units, 3*units]; bias [3*units], or [2, 3*units] (input, recurrent) with
// reset_after (the tf2 default, oneDNN's linear-before-reset GRU).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

struct GRUCellOptions {
  std::string activation = "tanh";
  std::string recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  bool reset_after = true;
  KERAS_LAYER_OPTIONS
};

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
