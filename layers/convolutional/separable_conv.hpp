#pragma once
// SeparableConv1D, SeparableConv2D: a depthwise convolution (depthwise_kernel [k..., in,
// depth_multiplier]) followed by a pointwise one (pointwise_kernel [1..., in * depth_multiplier,
// filters]), then bias and activation.
#include "layers/convolutional/depthwise_conv.hpp"

namespace keras::layers {

/// What the separable convolutions share.
class BaseSeparableConv : public BaseConv {
 public:
  void build(const Shape& input_shape) override;
  json get_config() const override;
  const std::shared_ptr<Variable>& depthwise_kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& pointwise_kernel() const { return pointwise_; }

 protected:
  BaseSeparableConv(const std::string& class_name, ConvSpec spec);
  std::int64_t kernel_in_channels() const override { return kernel_->shape()[spec_.rank]; }
  Tensor convolve(const Tensor& x, kernels::Eltwise fused) override;

  std::shared_ptr<Variable> pointwise_;
};

struct SeparableConv1DOptions {
  std::int64_t strides = 1;
  std::string padding = "valid";  // "valid", "same" or "causal"
  std::int64_t dilation_rate = 1;
  std::int64_t depth_multiplier = 1;
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  initializers::InitializerRef pointwise_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef depthwise_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef depthwise_constraint{};
  constraints::ConstraintRef bias_constraint{};
  regularizers::RegularizerRef pointwise_regularizer{};
  constraints::ConstraintRef pointwise_constraint{};
  KERAS_LAYER_OPTIONS
};

class SeparableConv1D : public BaseSeparableConv {
 public:
  SeparableConv1D(std::int64_t filters, std::int64_t kernel_size, SeparableConv1DOptions options = {});
  explicit SeparableConv1D(ConvSpec spec) : BaseSeparableConv("SeparableConv1D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(SeparableConv1D)
};

struct SeparableConv2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";  // "valid" or "same"
  Size2 dilation_rate = {1, 1};
  std::int64_t depth_multiplier = 1;
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  initializers::InitializerRef pointwise_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef depthwise_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef depthwise_constraint{};
  constraints::ConstraintRef bias_constraint{};
  regularizers::RegularizerRef pointwise_regularizer{};
  constraints::ConstraintRef pointwise_constraint{};
  KERAS_LAYER_OPTIONS
};

class SeparableConv2D : public BaseSeparableConv {
 public:
  SeparableConv2D(std::int64_t filters, Size2 kernel_size, SeparableConv2DOptions options = {});
  explicit SeparableConv2D(ConvSpec spec) : BaseSeparableConv("SeparableConv2D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(SeparableConv2D)
};

}  // namespace keras::layers
