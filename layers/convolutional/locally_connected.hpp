#pragma once
// LocallyConnected1D / LocallyConnected2D: like Conv1D / Conv2D, but with a separate kernel at every
// output position (weights unshared). tf.keras 2.x's implementation=1 layout: kernel
// [output positions, prod(kernel_size) * in, filters] (each window flattened as (kernel axes..., in)),
// bias [output spatial..., filters]; padding "valid" only, as Keras allows with implementation 1.
#include "layers/convolutional/base_conv.hpp"

namespace keras::layers {

struct LocallyConnected1DOptions {
  std::int64_t strides = 1;
  std::string padding = "valid";
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  int implementation = 1;  // only 1 (Keras's default) is supported
  KERAS_LAYER_OPTIONS  // input_shape (batch excluded): {steps, channels}
};

struct LocallyConnected2DOptions {
  Size2 strides = {1, 1};
  std::string padding = "valid";
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  int implementation = 1;  // only 1 (Keras's default) is supported
  KERAS_LAYER_OPTIONS  // input_shape (batch excluded): {height, width, channels}
};

/// The rank-generic layer behind both classes.
class LocallyConnected : public Layer {
 public:
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;

  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 protected:
  LocallyConnected(const std::string& class_name, ConvSpec spec, int implementation);
  /// A new L from Keras's config of a rank-`rank` layer.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, std::int64_t rank, const std::string& class_name);

 private:
  Shape output_spatial(const Shape& input_shape) const;

  std::string cls_;
  ConvSpec spec_;
  activations::Activation activation_;
  std::shared_ptr<Variable> kernel_, bias_;
};

class LocallyConnected1D : public LocallyConnected {
 public:
  LocallyConnected1D(std::int64_t filters, std::int64_t kernel_size, LocallyConnected1DOptions options = {});
  LocallyConnected1D(ConvSpec spec, int implementation) : LocallyConnected("LocallyConnected1D", std::move(spec), implementation) {}
  static std::shared_ptr<Layer> from_config(const json& config);
  KERAS_LAYER(LocallyConnected1D)
};

class LocallyConnected2D : public LocallyConnected {
 public:
  LocallyConnected2D(std::int64_t filters, Size2 kernel_size, LocallyConnected2DOptions options = {});
  LocallyConnected2D(ConvSpec spec, int implementation) : LocallyConnected("LocallyConnected2D", std::move(spec), implementation) {}
  static std::shared_ptr<Layer> from_config(const json& config);
  KERAS_LAYER(LocallyConnected2D)
};

}  // namespace keras::layers
