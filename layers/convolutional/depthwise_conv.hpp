#pragma once
// DepthwiseConv1D, DepthwiseConv2D: each input channel convolved with its own depth_multiplier
// filters (a grouped convolution with one group per channel), depthwise_kernel [k..., in,
// depth_multiplier], output channels in * depth_multiplier (channel c * depth_multiplier + m).
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

/// What the depthwise convolutions share.
class BaseDepthwiseConv : public BaseConv {
 public:
  void build(const Shape& input_shape) override;
  json get_config() const override;

 protected:
  BaseDepthwiseConv(const std::string& class_name, ConvSpec spec) : BaseConv(class_name, std::move(spec)) {}
  std::int64_t output_channels(std::int64_t in) const override { return in * spec_.depth_multiplier; }
  std::int64_t kernel_in_channels() const override { return kernel_->shape()[spec_.rank]; }
  Tensor convolve(const Tensor& x, kernels::Eltwise fused) override;
};

/// depthwise_kernel [k..., in, m] as the grouped kernel [k..., 1, in * m] of `in` groups.
Tensor depthwise_as_grouped(const Tensor& depthwise_kernel);

struct DepthwiseConv1DOptions {
  std::int64_t strides = 1;
  std::string padding = "valid";  // "valid", "same" or "causal"
  std::int64_t depth_multiplier = 1;
  std::int64_t dilation_rate = 1;
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef depthwise_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef depthwise_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

class DepthwiseConv1D : public BaseDepthwiseConv {
 public:
  explicit DepthwiseConv1D(std::int64_t kernel_size, DepthwiseConv1DOptions options = {});
  explicit DepthwiseConv1D(ConvSpec spec) : BaseDepthwiseConv("DepthwiseConv1D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(DepthwiseConv1D)
};

struct DepthwiseConv2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";  // "valid" or "same"
  std::int64_t depth_multiplier = 1;
  Size2 dilation_rate = {1, 1};
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef depthwise_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef depthwise_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

class DepthwiseConv2D : public BaseDepthwiseConv {
 public:
  explicit DepthwiseConv2D(Size2 kernel_size, DepthwiseConv2DOptions options = {});
  explicit DepthwiseConv2D(ConvSpec spec) : BaseDepthwiseConv("DepthwiseConv2D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(DepthwiseConv2D)
};

}  // namespace keras::layers
