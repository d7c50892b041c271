#include "layers/convolutional/base_conv.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "keras/json.hpp"

namespace keras::layers {
namespace {

void check_sizes(const Sizes& s, std::int64_t rank, const char* what, const std::string& cls) {
  if (static_cast<std::int64_t>(s.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` must have {} values, got {}", cls, what, rank, ops::sizes_str(s)));
  for (auto v : s)
    if (v <= 0)
      throw ValueError(fmt::format("{}: `{}` must be positive integers. Received: {}={}", cls, what, what,
                                   ops::sizes_str(s)));
}

// Keras writes tuples as lists; an int means the same value on every axis; null keeps `fallback`.
Sizes read_sizes(const json& c, const char* key, std::int64_t rank, Sizes fallback, const std::string& cls) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const json& v = c[key];
  if (v.is_number_integer()) return Sizes(rank, v.get<std::int64_t>());
  if (!v.is_array() || static_cast<std::int64_t>(v.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` must be {} integers, got {}", cls, key, rank, v.dump()));
  return v.get<Sizes>();
}

}  // namespace

BaseConv::BaseConv(const std::string& class_name, ConvSpec spec)
    : Layer(spec.name, to_snake_case(class_name), spec.trainable),
      cls_(class_name),
      spec_(std::move(spec)),
      activation_(activations::get(spec_.activation)) {
  set_activity_regularizer(spec_.activity_regularizer);
  const auto r = spec_.rank;
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
  spec_.padding = ops::normalize_padding(spec_.padding, cls_, r == 1 && spec_.output_padding.empty() &&
                                                                 cls_.find("Transpose") == std::string::npos);
  if (spec_.groups <= 0 || (spec_.filters > 0 && spec_.filters % spec_.groups != 0))
    throw ValueError(fmt::format("{}: the number of filters must be evenly divisible by the number of groups. "
                                 "Received: groups={}, filters={}", cls_, spec_.groups, spec_.filters));
  const auto big = [](const Sizes& s) { return std::any_of(s.begin(), s.end(), [](auto v) { return v > 1; }); };
  if (big(spec_.strides) && big(spec_.dilation_rate) && cls_.find("Transpose") == std::string::npos)
    throw ValueError(fmt::format("{}: `strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                                 "Received: strides={} and dilation_rate={}", cls_, ops::sizes_str(spec_.strides),
                                 ops::sizes_str(spec_.dilation_rate)));
  set_input_shape(spec_.input_shape);
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
  if (c % spec_.groups != 0)
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

Tensor BaseConv::call(const Tensor& inputs, bool) {
  check_input(inputs.shape(), true);
  const auto fused = activation_.fusable ? activation_.fused : kernels::Eltwise::linear;
  Tensor y = convolve(inputs, fused);
  return activation_.fusable ? y : activation_(y);
}

std::int64_t BaseConv::output_length(std::size_t i, std::int64_t in) const {
  return ops::conv_output_length(in, spec_.kernel_size[i], spec_.strides[i], spec_.padding, spec_.dilation_rate[i]);
}

Shape BaseConv::compute_output_shape(const Shape& s) const {
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

json BaseConv::base_config() const {
  json c = Layer::get_config();
  if (spec_.filters > 0) c["filters"] = spec_.filters;
  c["kernel_size"] = spec_.kernel_size;
  c["strides"] = spec_.strides;
  c["padding"] = spec_.padding;
  c["data_format"] = "channels_last";
  c["dilation_rate"] = spec_.dilation_rate;
  c["groups"] = spec_.groups;
  c["activation"] = activation_.name;
  c["use_bias"] = spec_.use_bias;
  c["bias_initializer"] = initializers::serialize(*spec_.bias_initializer);
  c["bias_regularizer"] = regularizers::serialize(spec_.bias_regularizer);
  c["activity_regularizer"] = regularizers::serialize(spec_.activity_regularizer);
  c["bias_constraint"] = constraints::serialize(spec_.bias_constraint);
  return c;
}

json BaseConv::get_config() const {
  json c = base_config();
  c["kernel_initializer"] = initializers::serialize(*spec_.kernel_initializer);
  c["kernel_regularizer"] = regularizers::serialize(spec_.kernel_regularizer);
  c["kernel_constraint"] = constraints::serialize(spec_.kernel_constraint);
  return c;
}

ConvSpec BaseConv::read_config(const json& c, std::int64_t rank, const std::string& cls) {
  if (c.value("data_format", "channels_last") != "channels_last")
    throw ValueError(cls + ": only data_format=\"channels_last\" is supported, got " + c["data_format"].dump());
  ConvSpec s;
  s.rank = rank;
  s.name = c.value("name", "");
  s.filters = c.contains("filters") && !c["filters"].is_null() ? c["filters"].get<std::int64_t>() : 0;
  s.kernel_size = read_sizes(c, "kernel_size", rank, {}, cls);
  s.strides = read_sizes(c, "strides", rank, repeat(1, rank), cls);
  s.padding = c.value("padding", "valid");
  s.dilation_rate = read_sizes(c, "dilation_rate", rank, repeat(1, rank), cls);
  s.groups = c.value("groups", 1);
  s.activation = c.contains("activation") && !c["activation"].is_null() ? c["activation"].get<std::string>() : "linear";
  s.use_bias = c.value("use_bias", true);
  s.output_padding = read_sizes(c, "output_padding", rank, {}, cls);
  s.depth_multiplier = c.value("depth_multiplier", 1);
  const auto init = [&](const char* key, initializers::InitializerRef& into) {
    if (c.contains(key) && !c[key].is_null()) into = initializers::Initializer::deserialize(c[key]);
  };
  init("kernel_initializer", s.kernel_initializer);
  init("bias_initializer", s.bias_initializer);
  init("depthwise_initializer", s.depthwise_initializer);
  init("pointwise_initializer", s.pointwise_initializer);
  regularizers::read_penalty_config(c, s);
  const auto at = [&](const char* key) { return c.contains(key) ? c[key] : json(); };
  s.depthwise_regularizer = regularizers::deserialize_or_null(at("depthwise_regularizer"));
  s.pointwise_regularizer = regularizers::deserialize_or_null(at("pointwise_regularizer"));
  s.depthwise_constraint = constraints::deserialize_or_null(at("depthwise_constraint"));
  s.pointwise_constraint = constraints::deserialize_or_null(at("pointwise_constraint"));
  return s;
}

}  // namespace keras::layers
