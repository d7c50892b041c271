#pragma once
// BaseConv: what every convolution layer shares (Keras's Conv base): `rank` spatial axes of
// channels_last inputs, kernel_size, strides, padding, dilation_rate, groups, activation, use_bias,
// initializers, Keras's config keys. Conv1D/2D/3D use it as is; transposed, depthwise and separable
// convolutions override the weights they build and the op they run.
#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"
#include "keras/regularizers/layer_options.hpp"

namespace keras::layers {

/// The rank-generic arguments of a convolution layer (each class fills it from its own options struct).
struct ConvSpec {
  std::int64_t rank = 2;
  std::int64_t filters = 0;  // 0 for depthwise convolutions (their output has in * depth_multiplier channels)
  Sizes kernel_size, strides, dilation_rate;
  std::string padding = "valid";
  std::int64_t groups = 1;
  std::string activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  Sizes output_padding;  // transposed convolutions; empty = None
  std::int64_t depth_multiplier = 1;  // depthwise and separable convolutions
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  initializers::InitializerRef pointwise_initializer = "glorot_uniform";
  regularizers::RegularizerRef kernel_regularizer{}, bias_regularizer{}, activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{}, bias_constraint{};
  regularizers::RegularizerRef depthwise_regularizer{}, pointwise_regularizer{};  // depthwise and separable
  constraints::ConstraintRef depthwise_constraint{}, pointwise_constraint{};
  Shape input_shape{};
  std::string name{};
  bool trainable = true;
};

class BaseConv : public Layer {
 public:
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;

  std::int64_t filters() const { return spec_.filters; }
  const Sizes& kernel_size() const { return spec_.kernel_size; }
  const Sizes& strides() const { return spec_.strides; }
  const Sizes& dilation_rate() const { return spec_.dilation_rate; }
  const std::string& padding() const { return spec_.padding; }
  std::int64_t groups() const { return spec_.groups; }
  /// The main kernel ("kernel", or "depthwise_kernel" for depthwise and separable convolutions).
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 protected:
  BaseConv(const std::string& class_name, ConvSpec spec);
  /// Reads Keras's config of a rank-`rank` convolution (single integers stand for every axis).
  static ConvSpec read_config(const json& config, std::int64_t rank, const std::string& class_name);
  /// A new L from Keras's config.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, std::int64_t rank, const std::string& class_name) {
    auto layer = std::make_shared<L>(read_config(config, rank, class_name));
    layer->read_base_config(config);
    return layer;
  }
  /// Output channels for `in_channels` input channels.
  virtual std::int64_t output_channels(std::int64_t in_channels) const { return spec_.filters; }
  /// Output length along spatial axis `axis` for input length `in`.
  virtual std::int64_t output_length(std::size_t axis, std::int64_t in) const;
  /// The input channels the built kernel expects.
  virtual std::int64_t kernel_in_channels() const;
  /// act(op(x) + bias) where act is fused when oneDNN can fuse it.
  virtual Tensor convolve(const Tensor& x, kernels::Eltwise fused);
  void check_input(const Shape& shape, bool built) const;
  /// The options as Keras writes them (the pairs as lists).
  json base_config() const;

  std::string cls_;
  ConvSpec spec_;
  activations::Activation activation_;
  std::shared_ptr<Variable> kernel_, bias_;
};

/// The spec with the regularizer and constraint arguments of an options struct that has them.
template <class Options>
ConvSpec with_penalties(ConvSpec s, const Options& o) {
  if constexpr (requires { o.kernel_regularizer; }) {
    s.kernel_regularizer = o.kernel_regularizer;
    s.bias_regularizer = o.bias_regularizer;
    s.activity_regularizer = o.activity_regularizer;
    s.kernel_constraint = o.kernel_constraint;
    s.bias_constraint = o.bias_constraint;
  }
  return s;
}

/// The spec with the depthwise/pointwise, bias and activity penalty arguments of a depthwise or separable
/// convolution's options struct (the fields it has).
template <class Options>
ConvSpec with_separable_penalties(ConvSpec s, const Options& o) {
  s.depthwise_regularizer = o.depthwise_regularizer;
  s.depthwise_constraint = o.depthwise_constraint;
  s.bias_regularizer = o.bias_regularizer;
  s.bias_constraint = o.bias_constraint;
  s.activity_regularizer = o.activity_regularizer;
  if constexpr (requires { o.pointwise_regularizer; }) {
    s.pointwise_regularizer = o.pointwise_regularizer;
    s.pointwise_constraint = o.pointwise_constraint;
  }
  return s;
}

/// Repeats one value over `rank` axes (Keras's int arguments).
inline Sizes repeat(std::int64_t v, std::int64_t rank) { return Sizes(rank, v); }

}  // namespace keras::layers
