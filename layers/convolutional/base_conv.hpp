#pragma once
// BaseConv: what every convolution layer shares (Keras's Conv base): `rank` spatial axes of
// channels_last inputs, kernel_size, strides, padding, dilation_rate, groups, activation, use_bias,
// initializers, Keras's config keys. Conv1D/2D/3D use it as is; transposed, depthwise and separable
// convolutions override the weights they build and the op they run.
#include <optional>

#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "keras/ops/convolution.hpp"

namespace keras::layers {

// The arguments of the convolution layers in the groups Keras's configs have them: each group's fields are
// listed once (KERAS_FIELDS in base_conv.cpp) and each class writes the groups it takes.

/// What every convolution takes, locally connected layers included.
struct ConvArgs {
  Sizes kernel_size, strides;
  std::string padding = "valid";
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef bias_regularizer{}, activity_regularizer{};
  constraints::ConstraintRef bias_constraint{};
};
/// Dilation and groups (Keras's Conv base; locally connected layers have neither).
struct DilationArgs {
  Sizes dilation_rate;
  std::int64_t groups = 1;
};
/// The kernel of plain, transposed and (as Keras 2 writes them) separable convolutions.
struct KernelArgs {
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  regularizers::RegularizerRef kernel_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
};
/// The depthwise kernel of depthwise and separable convolutions.
struct DepthwiseArgs {
  std::int64_t depth_multiplier = 1;
  initializers::InitializerRef depthwise_initializer = "glorot_uniform";
  regularizers::RegularizerRef depthwise_regularizer{};
  constraints::ConstraintRef depthwise_constraint{};
};
/// The pointwise kernel of separable convolutions.
struct PointwiseArgs {
  initializers::InitializerRef pointwise_initializer = "glorot_uniform";
  regularizers::RegularizerRef pointwise_regularizer{};
  constraints::ConstraintRef pointwise_constraint{};
};
/// The output padding of transposed convolutions (unset: Keras infers the output size).
struct TransposeArgs {
  std::optional<Sizes> output_padding{};
};

/// The rank-generic arguments of a convolution layer (each class fills it from its own options struct
/// with conv_spec).
struct ConvSpec : ConvArgs, DilationArgs, KernelArgs, DepthwiseArgs, PointwiseArgs, TransposeArgs {
  std::int64_t rank = 2;
  std::int64_t filters = 0;  // 0 for depthwise convolutions (their output has in * depth_multiplier channels)
  std::string data_format = "channels_last";  // or "channels_first": transposed at the layer's edges
  KERAS_LAYER_OPTIONS
};

/// The groups of a ConvSpec a class has in its config beside ConvArgs.
struct ConvFieldGroups {
  bool dilation = true, kernel = true, depthwise = false, pointwise = false, transpose = false;
};
/// Writes the fields of ConvArgs and of the other `groups`.
void write_conv_fields(json& config, const ConvSpec& spec, ConvFieldGroups groups);
/// A rank-`rank` spec from Keras's config: the name, filters and every group's fields present (a size may be
/// one integer for every axis); throws unless the data_format is channels_last.
ConvSpec read_conv_spec(const json& config, std::int64_t rank, const std::string& class_name);

/// A rank-`rank` spec from a class's options struct: the sizes given, and each other argument the struct has.
template <class Options>
ConvSpec conv_spec(std::int64_t rank, std::int64_t filters, Sizes kernel_size, Sizes strides, Sizes dilation_rate,
                   const Options& o) {
  ConvSpec s;
  s.rank = rank;
  s.filters = filters;
  s.kernel_size = std::move(kernel_size);
  s.strides = std::move(strides);
  s.dilation_rate = std::move(dilation_rate);
  s.padding = o.padding;
  s.activation = o.activation;
  s.use_bias = o.use_bias;
  s.bias_initializer = o.bias_initializer;
  s.bias_regularizer = o.bias_regularizer;
  s.activity_regularizer = o.activity_regularizer;
  s.bias_constraint = o.bias_constraint;
  if constexpr (requires { o.groups; }) s.groups = o.groups;
  if constexpr (requires { o.data_format; }) s.data_format = o.data_format;
  if constexpr (requires { o.kernel_initializer; }) {
    s.kernel_initializer = o.kernel_initializer;
    s.kernel_regularizer = o.kernel_regularizer;
    s.kernel_constraint = o.kernel_constraint;
  }
  if constexpr (requires { o.depthwise_initializer; }) {
    s.depth_multiplier = o.depth_multiplier;
    s.depthwise_initializer = o.depthwise_initializer;
    s.depthwise_regularizer = o.depthwise_regularizer;
    s.depthwise_constraint = o.depthwise_constraint;
  }
  if constexpr (requires { o.pointwise_initializer; }) {
    s.pointwise_initializer = o.pointwise_initializer;
    s.pointwise_regularizer = o.pointwise_regularizer;
    s.pointwise_constraint = o.pointwise_constraint;
  }
  s.input_shape = o.input_shape;
  s.name = o.name;
  s.trainable = o.trainable;
  return s;
}

class BaseConv : public Layer {
 public:
  void build(const Shape& input_shape) override;
  /// Builds from the channels_last view of a channels_first input (subclasses override build(Shape)).
  void build(const std::vector<Shape>& input_shapes) override;
  bool channels_first() const { return channels_first_; }
  Tensor call(const Tensor& inputs, bool training) override;
  /// Conv1D/2D/3D, channels_last, without an activation of their own (keras/epilogue.hpp).
  bool takes_epilogue() const override;
  Tensor call_with_epilogue(const Tensor& inputs, const Epilogue& epilogue) override;
  /// Conv1D/2D/3D with the activation relu (a max pooling after it pools first: keras/fused_chains.hpp).
  bool defers_relu() const override;
  Tensor call_without_relu(const Tensor& inputs) override;
  /// Conv2D, channels_last, activation linear or relu: conv + 2 x 2 max pooling in one pass where the
  /// kernel serves the shapes (keras/kernels/conv_max_pool.hpp).
  Tensor call_max_pooled(const Tensor& inputs) override;
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
  /// A new L from Keras's config of a rank-`rank` convolution.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, std::int64_t rank, const std::string& class_name) {
    auto layer = std::make_shared<L>(read_conv_spec(config, rank, class_name));
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
  /// call(), with or without the layer's activation.
  Tensor run(const Tensor& given, bool with_activation);
  /// compute_output_shape of a channels_last input.
  Shape compute_output_shape_last(const Shape& input_shape) const;
  /// The config with the base fields and the field `groups` of this class.
  json conv_config(ConvFieldGroups groups) const;

  std::string cls_;
  ConvSpec spec_;
  bool channels_first_ = false;
  activations::Activation activation_;
  std::shared_ptr<Variable> kernel_, bias_;
};

/// Repeats one value over `rank` axes (Keras's int arguments).
inline Sizes repeat(std::int64_t v, std::int64_t rank) { return Sizes(rank, v); }
/// A pair or triple of sizes (Size2, Size3) as rank-generic Sizes.
template <std::size_t N>
Sizes sizes(const std::array<std::int64_t, N>& a) {
  return Sizes(a.begin(), a.end());
}

}  // namespace keras::layers
