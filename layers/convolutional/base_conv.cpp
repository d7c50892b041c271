#include "layers/convolutional/base_conv.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "keras/config/fields.hpp"
#include "keras/config/codec.hpp"
#include "keras/ops/conv_max_pool.hpp"
#include "layers/data_format.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::layers {

KERAS_FIELDS(ConvArgs, kernel_size, strides, padding, activation, use_bias, bias_initializer, bias_regularizer,
             activity_regularizer, bias_constraint)
KERAS_FIELDS(DilationArgs, dilation_rate, groups)
KERAS_FIELDS(KernelArgs, kernel_initializer, kernel_regularizer, kernel_constraint)
KERAS_FIELDS(DepthwiseArgs, depth_multiplier, depthwise_initializer, depthwise_regularizer, depthwise_constraint)
KERAS_FIELDS(PointwiseArgs, pointwise_initializer, pointwise_regularizer, pointwise_constraint)
KERAS_FIELDS(TransposeArgs, output_padding)

void write_conv_fields(json& c, const ConvSpec& s, ConvFieldGroups groups) {
  config::write_fields(c, static_cast<const ConvArgs&>(s));
  if (groups.dilation) config::write_fields(c, static_cast<const DilationArgs&>(s));
  if (groups.kernel) config::write_fields(c, static_cast<const KernelArgs&>(s));
  if (groups.depthwise) config::write_fields(c, static_cast<const DepthwiseArgs&>(s));
  if (groups.pointwise) config::write_fields(c, static_cast<const PointwiseArgs&>(s));
  if (groups.transpose) config::write_fields(c, static_cast<const TransposeArgs&>(s));
}

ConvSpec read_conv_spec(const json& config, std::int64_t rank, const std::string& cls) {
  const json c = with_shorthands_spelled_out(config, static_cast<int>(rank),
                                             {"kernel_size", "strides", "dilation_rate", "output_padding"}, cls);
  ConvSpec s;
  s.rank = rank;
  s.name = config::value_or(c, "name", std::string());
  s.filters = config::value_or(c, "filters", std::int64_t{0});
  s.data_format = config::value_or(c, "data_format", std::string("channels_last"));
  config::read_fields(c, static_cast<ConvArgs&>(s));
  config::read_fields(c, static_cast<DilationArgs&>(s));
  config::read_fields(c, static_cast<KernelArgs&>(s));
  config::read_fields(c, static_cast<DepthwiseArgs&>(s));
  config::read_fields(c, static_cast<PointwiseArgs&>(s));
  config::read_fields(c, static_cast<TransposeArgs&>(s));
  return s;
}

namespace {

void check_sizes(const Sizes& s, std::int64_t rank, const char* what, const std::string& cls) {
  if (static_cast<std::int64_t>(s.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` must have {} values, got {}", cls, what, rank, ops::sizes_str(s)));
  for (auto v : s)
    if (v <= 0)
      throw ValueError(fmt::format("{}: `{}` must be positive integers. Received: {}={}", cls, what, what,
                                   ops::sizes_str(s)));
}

}  // namespace

BaseConv::BaseConv(const std::string& class_name, ConvSpec spec)
    : Layer(spec, to_snake_case(class_name)),
      cls_(class_name),
      spec_(std::move(spec)),
      activation_(activations::resolve(spec_.activation)) {
  set_activity_regularizer(spec_.activity_regularizer);
  const auto r = spec_.rank;
  channels_first_ = is_channels_first(spec_.data_format, cls_);
  if (spec_.filters < 0 || (spec_.filters == 0 && spec_.depth_multiplier <= 0))
    throw ValueError(fmt::format("{}: invalid value for argument `filters`. Expected a strictly positive value. "
                                 "Received filters={}", cls_, spec_.filters));
  if (spec_.depth_multiplier <= 0)
    throw ValueError(fmt::format("{}: `depth_multiplier` must be positive, got {}", cls_, spec_.depth_multiplier));
  if (spec_.strides.empty()) spec_.strides = repeat(1, r);
  if (spec_.dilation_rate.empty()) spec_.dilation_rate = repeat(1, r);
  check_sizes(spec_.kernel_size, r, "kernel_size", cls_);
  check_sizes(spec_.strides, r, "strides", cls_);
  check_sizes(spec_.dilation_rate, r, "dilation_rate", cls_);
  spec_.padding = ops::normalize_padding(spec_.padding, cls_, r == 1 && !spec_.output_padding &&
                                                                 cls_.find("Transpose") == std::string::npos);
  if (spec_.groups <= 0 || (spec_.filters > 0 && spec_.filters % spec_.groups != 0))
    throw ValueError(fmt::format("{}: the number of filters must be evenly divisible by the number of groups. "
                                 "Received: groups={}, filters={}", cls_, spec_.groups, spec_.filters));
  const auto big = [](const Sizes& s) { return std::any_of(s.begin(), s.end(), [](auto v) { return v > 1; }); };
  if (big(spec_.strides) && big(spec_.dilation_rate) && cls_.find("Transpose") == std::string::npos)
    throw ValueError(fmt::format("{}: `strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                                 "Received: strides={} and dilation_rate={}", cls_, ops::sizes_str(spec_.strides),
                                 ops::sizes_str(spec_.dilation_rate)));
}

std::int64_t BaseConv::kernel_in_channels() const { return kernel_->shape()[spec_.rank] * spec_.groups; }

void BaseConv::check_input(const Shape& shape, bool built) const {
  const auto want = static_cast<std::size_t>(spec_.rank + 2);
  if (shape.size() != want)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={} "
                                 "(batch, {}channels), found ndim={}. Full shape received: {}",
                                 name(), cls_, want, spec_.rank == 1 ? "steps, " : spec_.rank == 2
                                 ? "height, width, " : "depth, height, width, ", shape.size(), shape_str(shape)));
  const auto c = shape.back();
  if (c <= 0)
    throw ValueError(fmt::format("Layer \"{}\" ({}): the channel dimension of the inputs should be defined. Found "
                                 "shape {}", name(), cls_, shape_str(shape)));
  if (c % spec_.groups != 0 && cls_.find("Transpose") == std::string::npos)  // tf.keras ignores it there
    throw ValueError(fmt::format("Layer \"{}\" ({}): the number of input channels must be evenly divisible by the "
                                 "number of groups. Received groups={}, but the input has {} channels (full input "
                                 "shape is {})", name(), cls_, spec_.groups, c, shape_str(shape)));
  if (built && c != kernel_in_channels())
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected axis -1 of "
                                 "input shape to have value {}, but received input with shape {}",
                                 name(), cls_, kernel_in_channels(), shape_str(shape)));
}

void BaseConv::build(const Shape& input_shape) {
  check_input(input_shape, false);
  Shape k(spec_.kernel_size.begin(), spec_.kernel_size.end());
  k.push_back(input_shape.back() / spec_.groups);
  k.push_back(spec_.filters);
  kernel_ = add_weight("kernel", k, spec_.kernel_initializer, true, spec_.kernel_regularizer, spec_.kernel_constraint);
  if (spec_.use_bias)
    bias_ = add_weight("bias", {spec_.filters}, spec_.bias_initializer, true, spec_.bias_regularizer, spec_.bias_constraint);
}

Tensor BaseConv::convolve(const Tensor& x, kernels::Eltwise fused) {
  return ops::conv(x, kernel_->value(), bias_ ? bias_->value() : Tensor(), spec_.strides, spec_.padding,
                   spec_.dilation_rate, spec_.groups, fused);
}

void BaseConv::build(const std::vector<Shape>& input_shapes) {
  if (input_shapes.size() != 1 || !channels_first_) return Layer::build(input_shapes);
  build(to_channels_last(input_shapes[0]));
}

Tensor BaseConv::call(const Tensor& given, bool) { return run(given, true); }

Tensor BaseConv::run(const Tensor& given, bool with_activation) {
  if (channels_first_ && given.ndim() != spec_.rank + 2) check_input(given.shape(), true);  // the rank error
  const Tensor inputs = channels_first_ ? to_channels_last(given) : given;
  check_input(inputs.shape(), true);
  const auto fused = activation_.fusable && with_activation ? activation_.fused : kernels::Eltwise::linear;
  Tensor y = convolve(inputs, fused);
  if (!activation_.fusable && with_activation) y = activation_(y);
  return channels_first_ ? to_channels_first(y) : y;
}

namespace {
bool plain_convolution(const std::string& class_name) {
  return class_name == "Conv1D" || class_name == "Conv2D" || class_name == "Conv3D";
}
}  // namespace

bool BaseConv::takes_epilogue() const {
  return built() && !channels_first_ && plain_convolution(class_name()) && activation_.fusable &&
         activation_.fused == kernels::Eltwise::linear;
}

bool BaseConv::defers_relu() const {
  return built() && plain_convolution(class_name()) && activation_.fusable && activation_.fused == kernels::Eltwise::relu;
}

Tensor BaseConv::call_without_relu(const Tensor& inputs) {
  if (!defers_relu()) return Layer::call_without_relu(inputs);
  return run(inputs, false);
}

Tensor BaseConv::call_max_pooled(const Tensor& inputs) {
  const bool linear = activation_.fused == kernels::Eltwise::linear;
  if (!built() || channels_first_ || class_name() != "Conv2D" || !activation_.fusable ||
      (!linear && activation_.fused != kernels::Eltwise::relu))
    return Tensor();
  check_input(inputs.shape(), true);
  return ops::conv_max_pool(inputs, kernel_->value(), bias_ ? bias_->value() : Tensor(), spec_.strides,
                           spec_.padding, spec_.dilation_rate, spec_.groups, !linear);
}

Tensor BaseConv::call_with_epilogue(const Tensor& inputs, const Epilogue& epilogue) {
  if (!takes_epilogue()) return Layer::call_with_epilogue(inputs, epilogue);
  check_input(inputs.shape(), true);
  return ops::conv_inference(inputs, kernel_->value(), bias_ ? bias_->value() : Tensor(), spec_.strides, spec_.padding,
                             spec_.dilation_rate, spec_.groups, epilogue);
}

std::int64_t BaseConv::output_length(std::size_t i, std::int64_t in) const {
  return ops::conv_output_length(in, spec_.kernel_size[i], spec_.strides[i], spec_.padding, spec_.dilation_rate[i]);
}

Shape BaseConv::compute_output_shape(const Shape& given) const {
  if (channels_first_ && given.size() == static_cast<std::size_t>(spec_.rank + 2))
    return to_channels_first(compute_output_shape_last(to_channels_last(given)));
  return compute_output_shape_last(given);
}

Shape BaseConv::compute_output_shape_last(const Shape& s) const {
  check_input(s, false);
  Shape out{s[0]};
  for (std::size_t i = 0; i < static_cast<std::size_t>(spec_.rank); ++i) {
    out.push_back(output_length(i, s[i + 1]));
    if (out.back() == 0)
      throw ValueError(fmt::format("Layer \"{}\" ({}): the kernel {} does not fit input of shape {} under \"valid\" "
                                   "padding", name(), cls_, ops::sizes_str(spec_.kernel_size), shape_str(s)));
  }
  out.push_back(output_channels(s.back()));
  return out;
}

json BaseConv::get_config() const { return conv_config({}); }

json BaseConv::conv_config(ConvFieldGroups groups) const {
  json c = Layer::get_config();
  write_conv_fields(c, spec_, groups);
  if (spec_.filters > 0) c["filters"] = spec_.filters;
  c["data_format"] = channels_first_ ? "channels_first" : "channels_last";
  c["activation"] = activation_.name;  // the canonical name of an alias
  return c;
}

}  // namespace keras::layers
