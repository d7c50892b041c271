#pragma once
// Conv1DTranspose, Conv2DTranspose, Conv3DTranspose: the transposed convolution (the gradient of a
// convolution with respect to its input) over channels_last inputs, kernel [k..., filters, in],
// Keras's output size (output_padding None or given). `groups` is tf.keras 2.x's: read, checked (filters
// divisible by it) and written back, and, as in tf.keras 2.x, not applied: the kernel spans every input
// channel, so files with groups > 1 load with their weights and predict as Keras does.
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

/// What the three transposed convolutions share.
class BaseConvTranspose : public BaseConv {
 public:
  void build(const Shape& input_shape) override;
  json get_config() const override;

 protected:
  BaseConvTranspose(const std::string& class_name, ConvSpec spec);
  std::int64_t output_length(std::size_t axis, std::int64_t in) const override;
  std::int64_t kernel_in_channels() const override { return kernel_->shape()[spec_.rank + 1]; }
  Tensor convolve(const Tensor& x, kernels::Eltwise fused) override;
};

struct Conv1DTransposeOptions {
  std::int64_t strides = 1;
  std::string padding = "valid";      // "valid" or "same"
  std::int64_t output_padding = -1;   // -1: None (Keras infers the output length)
  std::int64_t dilation_rate = 1;
  std::int64_t groups = 1;  // see above: recorded, not applied (tf.keras 2.x)
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

class Conv1DTranspose : public BaseConvTranspose {
 public:
  Conv1DTranspose(std::int64_t filters, std::int64_t kernel_size, Conv1DTransposeOptions options = {});
  explicit Conv1DTranspose(ConvSpec spec) : BaseConvTranspose("Conv1DTranspose", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv1DTranspose)
};

struct Conv2DTransposeOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";
  std::optional<Size2> output_padding{};  // none: Keras infers the output size
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
  KERAS_LAYER_OPTIONS
};

class Conv2DTranspose : public BaseConvTranspose {
 public:
  Conv2DTranspose(std::int64_t filters, Size2 kernel_size, Conv2DTransposeOptions options = {});
  explicit Conv2DTranspose(ConvSpec spec) : BaseConvTranspose("Conv2DTranspose", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv2DTranspose)
};

struct Conv3DTransposeOptions {
  Size3 strides = {1, 1, 1};
  std::string padding = "valid";
  std::optional<Size3> output_padding{};
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
  KERAS_LAYER_OPTIONS
};

class Conv3DTranspose : public BaseConvTranspose {
 public:
  Conv3DTranspose(std::int64_t filters, Size3 kernel_size, Conv3DTransposeOptions options = {});
  explicit Conv3DTranspose(ConvSpec spec) : BaseConvTranspose("Conv3DTranspose", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv3DTranspose)
};

}  // namespace keras::layers
