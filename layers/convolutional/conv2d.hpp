#pragma once
// Conv2D: activation(conv2d(inputs, kernel) + bias) over channels_last images, kernel [kh, kw, in, filters].
#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "keras/regularizers/layer_options.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::layers {

struct Conv2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";  // "valid" or "same"
  Size2 dilation_rate = {1, 1};
  std::string activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  Shape input_shape{};  // optional, batch dimension excluded: {height, width, channels}
  std::string name{};
  bool trainable = true;
};

class Conv2D : public Layer {
 public:
  Conv2D(std::int64_t filters, Size2 kernel_size, Conv2DOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::string class_name() const override { return "Conv2D"; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  std::int64_t filters() const { return filters_; }
  Size2 kernel_size() const { return kernel_size_; }
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 private:
  void check_input(const Shape& shape, bool built) const;

  std::int64_t filters_;
  Size2 kernel_size_;
  Conv2DOptions options_;
  activations::Activation activation_;
  std::shared_ptr<Variable> kernel_, bias_;
};

}  // namespace keras::layers
