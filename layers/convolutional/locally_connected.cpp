#include "layers/convolutional/locally_connected.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/patches.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {
namespace {

Sizes read_sizes(const json& c, const char* key, std::int64_t rank, Sizes fallback, const std::string& cls) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const json& v = c[key];
  if (v.is_number_integer()) return Sizes(rank, v.get<std::int64_t>());
  if (!v.is_array() || static_cast<std::int64_t>(v.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` must be {} integers, got {}", cls, key, rank, v.dump()));
  return v.get<Sizes>();
}

json sizes_json(const Sizes& s) { return json(s); }

}  // namespace

LocallyConnected::LocallyConnected(const std::string& class_name, ConvSpec spec, int implementation)
    : Layer(spec.name, to_snake_case(class_name), spec.trainable),
      cls_(class_name),
      spec_(std::move(spec)),
      activation_(activations::get(spec_.activation)) {
  if (spec_.filters <= 0)
    throw ValueError(fmt::format("{}: `filters` must be a positive integer, received filters={}", cls_, spec_.filters));
  for (const Sizes* s : {&spec_.kernel_size, &spec_.strides})
    for (auto v : *s)
      if (v <= 0 || static_cast<std::int64_t>(s->size()) != spec_.rank)
        throw ValueError(fmt::format("{}: kernel_size and strides must be {} positive integers, got {} and {}", cls_,
                                     spec_.rank, ops::sizes_str(spec_.kernel_size), ops::sizes_str(spec_.strides)));
  spec_.padding = ops::normalize_padding(spec_.padding, cls_);
  if (spec_.padding != "valid")
    throw ValueError(fmt::format("Invalid border mode for {} (only \"valid\" is supported if implementation is 1): {}",
                                 cls_, spec_.padding));
  if (implementation != 1)
    throw ValueError(fmt::format("{}: only implementation=1 (Keras's default kernel layout) is supported, got {}", cls_,
                                 implementation));
  set_input_shape(spec_.input_shape);
  set_activity_regularizer(spec_.activity_regularizer);
}

Shape LocallyConnected::output_spatial(const Shape& s) const {
  const auto r = spec_.rank;
  if (static_cast<std::int64_t>(s.size()) != r + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) should have rank {} ([batch, spatial..., channels]), got "
                                 "shape {}",
                                 name(), cls_, r + 2, shape_str(s)));
  Shape out;
  for (std::int64_t a = 0; a < r; ++a) {
    const auto in = s[a + 1];
    if (in < 0)
      throw ValueError(fmt::format("{} \"{}\" needs fully defined spatial dimensions (its kernel has one slice per "
                                   "output position), got input shape {}",
                                   cls_, name(), shape_str(s)));
    const auto o = ops::conv_output_length(in, spec_.kernel_size[a], spec_.strides[a], "valid");
    if (o <= 0)
      throw ValueError(fmt::format("{} \"{}\": kernel_size {} is larger than the input {}", cls_, name(),
                                   ops::sizes_str(spec_.kernel_size), shape_str(s)));
    out.push_back(o);
  }
  return out;
}

void LocallyConnected::build(const Shape& input_shape) {
  const Shape spatial = output_spatial(input_shape);
  const std::int64_t in = input_shape.back();
  if (in <= 0)
    throw ValueError(fmt::format("{} \"{}\" needs a known channel dimension, got {}", cls_, name(),
                                 shape_str(input_shape)));
  std::int64_t positions = 1, window = in;
  for (auto d : spatial) positions *= d;
  for (auto k : spec_.kernel_size) window *= k;
  kernel_ = add_weight("kernel", {positions, window, spec_.filters}, spec_.kernel_initializer, true,
                       spec_.kernel_regularizer, spec_.kernel_constraint);
  if (spec_.use_bias) {
    Shape b = spatial;
    b.push_back(spec_.filters);
    bias_ = add_weight("bias", b, spec_.bias_initializer, true, spec_.bias_regularizer, spec_.bias_constraint);
  }
}

Shape LocallyConnected::compute_output_shape(const Shape& input_shape) const {
  Shape out{input_shape.empty() ? -1 : input_shape[0]};
  for (auto d : output_spatial(input_shape)) out.push_back(d);
  out.push_back(spec_.filters);
  return out;
}

Tensor LocallyConnected::call(const Tensor& inputs, bool) {
  Shape want = *built_input_shape();
  want[0] = inputs.ndim() > 0 ? inputs.dim(0) : -1;
  if (inputs.shape() != want)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected shape {}, got "
                                 "{}",
                                 name(), cls_, shape_str(*built_input_shape()), shape_str(inputs.shape())));
  // [batch, positions, window] → [positions, batch, window] @ kernel [positions, window, filters].
  const Tensor patches = ops::transpose(ops::extract_patches(inputs, spec_.kernel_size, spec_.strides), {1, 0, 2});
  Tensor y = ops::transpose(ops::batch_matmul(patches, kernel_->value()), {1, 0, 2});
  Shape out = compute_output_shape(inputs.shape());
  y = ops::reshape(y, out);
  if (bias_) y = ops::add(y, bias_->value());
  return activation_(y);
}

json LocallyConnected::get_config() const {
  json c = Layer::get_config();
  c["filters"] = spec_.filters;
  c["kernel_size"] = sizes_json(spec_.kernel_size);
  c["strides"] = sizes_json(spec_.strides);
  c["padding"] = spec_.padding;
  c["data_format"] = "channels_last";
  c["activation"] = activation_.name;
  c["use_bias"] = spec_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*spec_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*spec_.bias_initializer);
  regularizers::write_penalty_config(c, spec_);
  c["implementation"] = 1;
  return c;
}

std::pair<ConvSpec, int> LocallyConnected::read_config(const json& c, std::int64_t rank, const std::string& cls) {
  if (c.contains("data_format") && !c["data_format"].is_null() && c["data_format"] != "channels_last")
    throw ValueError(cls + ": only data_format=\"channels_last\" is supported, got " + c["data_format"].dump());
  ConvSpec s;
  s.rank = rank;
  s.name = c.value("name", "");
  s.filters = c.at("filters").get<std::int64_t>();
  s.kernel_size = read_sizes(c, "kernel_size", rank, {}, cls);
  s.strides = read_sizes(c, "strides", rank, repeat(1, rank), cls);
  s.padding = c.value("padding", "valid");
  s.activation = c.contains("activation") && !c["activation"].is_null() ? c["activation"].get<std::string>() : "linear";
  s.use_bias = c.value("use_bias", true);
  if (c.contains("kernel_initializer") && !c["kernel_initializer"].is_null())
    s.kernel_initializer = initializers::Initializer::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer") && !c["bias_initializer"].is_null())
    s.bias_initializer = initializers::Initializer::deserialize(c["bias_initializer"]);
  regularizers::read_penalty_config(c, s);
  return {s, c.value("implementation", 1)};
}

LocallyConnected1D::LocallyConnected1D(std::int64_t filters, std::int64_t kernel_size, LocallyConnected1DOptions o)
    : LocallyConnected("LocallyConnected1D",
                       with_penalties({.rank = 1, .filters = filters, .kernel_size = {kernel_size},
                                       .strides = {o.strides}, .padding = o.padding, .activation = o.activation,
                                       .use_bias = o.use_bias, .kernel_initializer = o.kernel_initializer,
                                       .bias_initializer = o.bias_initializer, .input_shape = o.input_shape,
                                       .name = o.name, .trainable = o.trainable},
                                      o),
                       o.implementation) {}

std::shared_ptr<Layer> LocallyConnected1D::from_config(const json& c) {
  auto [spec, implementation] = read_config(c, 1, "LocallyConnected1D");
  auto layer = std::make_shared<LocallyConnected1D>(spec, implementation);
  layer->read_base_config(c);
  return layer;
}

LocallyConnected2D::LocallyConnected2D(std::int64_t filters, Size2 kernel_size, LocallyConnected2DOptions o)
    : LocallyConnected("LocallyConnected2D",
                       with_penalties({.rank = 2, .filters = filters, .kernel_size = {kernel_size[0], kernel_size[1]},
                                       .strides = {o.strides[0], o.strides[1]}, .padding = o.padding,
                                       .activation = o.activation, .use_bias = o.use_bias,
                                       .kernel_initializer = o.kernel_initializer,
                                       .bias_initializer = o.bias_initializer, .input_shape = o.input_shape,
                                       .name = o.name, .trainable = o.trainable},
                                      o),
                       o.implementation) {}

std::shared_ptr<Layer> LocallyConnected2D::from_config(const json& c) {
  auto [spec, implementation] = read_config(c, 2, "LocallyConnected2D");
  auto layer = std::make_shared<LocallyConnected2D>(spec, implementation);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(LocallyConnected1D)
KERAS_REGISTER_LAYER(LocallyConnected2D)

}  // namespace keras::layers
