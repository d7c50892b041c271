#pragma once
// Conv3D: activation(conv3d(inputs, kernel) + bias) over channels_last volumes (batch, depth, height, width,
// channels), kernel [kd, kh, kw, in / groups, filters].
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

struct Conv3DOptions {
  Size3 strides = {1, 1, 1};
  std::string padding = "valid";  // "valid" or "same"
  Size3 dilation_rate = {1, 1, 1};
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
  KERAS_LAYER_OPTIONS  // input_shape (batch excluded): {depth, height, width, channels}
};

class Conv3D : public BaseConv {
 public:
  Conv3D(std::int64_t filters, Size3 kernel_size, Conv3DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  explicit Conv3D(ConvSpec spec) : BaseConv("Conv3D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv3D)
};

}  // namespace keras::layers
