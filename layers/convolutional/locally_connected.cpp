#include "layers/convolutional/locally_connected.hpp"

#include <fmt/format.h>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "layers/reshaping/spatial_arguments.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/patches.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

LocallyConnected::LocallyConnected(const std::string& class_name, ConvSpec spec, int implementation)
    : Layer(spec, to_snake_case(class_name)),
      cls_(class_name),
      spec_(std::move(spec)),
      activation_(activations::resolve(spec_.activation)) {
  if (spec_.filters <= 0)
    throw ValueError(fmt::format("{}: `filters` must be a positive integer, received filters={}", cls_, spec_.filters));
  for (const Sizes* s : {&spec_.kernel_size, &spec_.strides})
    for (auto v : *s)
      if (v <= 0 || static_cast<std::int64_t>(s->size()) != spec_.rank)
        throw ValueError(fmt::format("{}: kernel_size and strides must be {} positive integers, got {} and {}", cls_,
                                     spec_.rank, ops::sizes_str(spec_.kernel_size), ops::sizes_str(spec_.strides)));
  if (spec_.strides.empty()) spec_.strides = repeat(1, spec_.rank);
  spec_.padding = ops::normalize_padding(spec_.padding, cls_);
  if (spec_.padding != "valid")
    throw ValueError(fmt::format("Invalid border mode for {} (only \"valid\" is supported if implementation is 1): {}",
                                 cls_, spec_.padding));
  if (implementation != 1)
    throw ValueError(fmt::format("{}: only implementation=1 (Keras's default kernel layout) is supported, got {}", cls_,
                                 implementation));
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
  write_conv_fields(c, spec_, {.dilation = false});
  c["filters"] = spec_.filters;
  c["data_format"] = "channels_last";
  c["activation"] = activation_.name;  // the canonical name of an alias
  c["implementation"] = 1;
  return c;
}

template <class L>
std::shared_ptr<Layer> LocallyConnected::from_config_as(const json& c, std::int64_t rank, const std::string& cls) {
  require_channels_last(c, cls);
  auto layer = std::make_shared<L>(read_conv_spec(c, rank, cls), config::value_or(c, "implementation", 1));
  layer->read_base_config(c);
  return layer;
}

LocallyConnected1D::LocallyConnected1D(std::int64_t filters, std::int64_t kernel_size, LocallyConnected1DOptions o)
    : LocallyConnected("LocallyConnected1D",
                       conv_spec(1, filters, {kernel_size}, {o.strides}, {}, o), o.implementation) {}

std::shared_ptr<Layer> LocallyConnected1D::from_config(const json& c) {
  return from_config_as<LocallyConnected1D>(c, 1, "LocallyConnected1D");
}

LocallyConnected2D::LocallyConnected2D(std::int64_t filters, Size2 kernel_size, LocallyConnected2DOptions o)
    : LocallyConnected("LocallyConnected2D",
                       conv_spec(2, filters, sizes(kernel_size), sizes(o.strides), {}, o), o.implementation) {}

std::shared_ptr<Layer> LocallyConnected2D::from_config(const json& c) {
  return from_config_as<LocallyConnected2D>(c, 2, "LocallyConnected2D");
}

KERAS_REGISTER_LAYER(LocallyConnected1D)
KERAS_REGISTER_LAYER(LocallyConnected2D)

}  // namespace keras::layers
