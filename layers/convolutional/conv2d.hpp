#pragma once
// Conv2D: activation(conv2d(inputs, kernel) + bias) over channels_last images,
// kernel [kh, kw, in / groups, filters].
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

struct Conv2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";  // "valid" or "same"
  Size2 dilation_rate = {1, 1};
  std::int64_t groups = 1;
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS  // input_shape (batch excluded): {height, width, channels}
};

class Conv2D : public BaseConv {
 public:
  Conv2D(std::int64_t filters, Size2 kernel_size, Conv2DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  explicit Conv2D(ConvSpec spec) : BaseConv("Conv2D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv2D)
};

}  // namespace keras::layers
