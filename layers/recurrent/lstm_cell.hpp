#pragma once
// LSTMCell: gates i, f, c, o in Keras's order (oneDNN's too) in kernel [in, 4*units],
// recurrent_kernel [units, 4*units], bias [4*units]; states (h, c).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

struct LSTMCellOptions {
  std::string activation = "tanh";
  std::string recurrent_activation = "sigmoid";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  bool unit_forget_bias = true;
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  KERAS_LAYER_OPTIONS
};

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
