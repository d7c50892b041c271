#pragma once
// Conv1D: activation(conv1d(inputs, kernel) + bias) over channels_last sequences (batch, steps,
// channels), kernel [k, in / groups, filters]; padding "valid", "same" or "causal".
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

struct Conv1DOptions {
  std::int64_t strides = 1;
  std::string padding = "valid";  // "valid", "same" or "causal" (left padding: output t sees inputs <= t)
  std::int64_t dilation_rate = 1;
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
  KERAS_LAYER_OPTIONS  // input_shape (batch excluded): {steps, channels}
};

class Conv1D : public BaseConv {
 public:
  Conv1D(std::int64_t filters, std::int64_t kernel_size, Conv1DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  explicit Conv1D(ConvSpec spec) : BaseConv("Conv1D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Conv1D)
};

}  // namespace keras::layers
