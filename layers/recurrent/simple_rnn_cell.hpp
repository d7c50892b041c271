#pragma once
// SimpleRNNCell: h = activation(x @ kernel + bias + h_prev @ recurrent_kernel).
#include "layers/recurrent/recurrent_cell.hpp"

namespace keras::layers {

struct SimpleRNNCellOptions {
  std::string activation = "tanh";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef recurrent_initializer = "orthogonal";
  initializers::InitializerRef bias_initializer = "zeros";
  float dropout = 0.f;
  float recurrent_dropout = 0.f;
  KERAS_LAYER_OPTIONS
};

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
