#include "layers/convolutional/conv2d.hpp"

namespace keras::layers {
namespace {

void check_pair(Size2 s, const char* what) {
  if (s[0] <= 0 || s[1] <= 0)
    throw ValueError(std::string("Conv2D: `") + what + "` must be positive integers. Received: " + what + "=" +
                     ops::size2_str(s));
}

// Keras writes (h, w) pairs as lists; an int means the same value on both axes.
Size2 read_pair(const json& c, const char* key, Size2 fallback) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const json& v = c[key];
  if (v.is_number_integer()) return {v.get<std::int64_t>(), v.get<std::int64_t>()};
  if (!v.is_array() || v.size() != 2) throw ValueError(std::string("Conv2D: `") + key + "` must be two integers, got " + v.dump());
  return {v[0].get<std::int64_t>(), v[1].get<std::int64_t>()};
}

}  // namespace

Conv2D::Conv2D(std::int64_t filters, Size2 kernel_size, Conv2DOptions options)
    : Layer(options.name, "conv2d", options.trainable),
      filters_(filters),
      kernel_size_(kernel_size),
      options_(std::move(options)),
      activation_(activations::get(options_.activation)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
  check_pair(kernel_size_, "kernel_size");
  check_pair(options_.strides, "strides");
  check_pair(options_.dilation_rate, "dilation_rate");
  options_.padding = ops::normalize_padding(options_.padding, "Conv2D");
  set_activity_regularizer(options_.activity_regularizer);
  const auto& s = options_.strides;
  const auto& d = options_.dilation_rate;
  if ((s[0] > 1 || s[1] > 1) && (d[0] > 1 || d[1] > 1))
    throw ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: strides=" +
                     ops::size2_str(s) + " and dilation_rate=" + ops::size2_str(d));
  set_input_shape(options_.input_shape);
}

void Conv2D::check_input(const Shape& shape, bool built) const {
  if (shape.size() != 4)
    throw ValueError("Input 0 of layer \"" + name() + "\" (Conv2D) is incompatible with the layer: expected ndim=4 "
                     "(batch, height, width, channels), found ndim=" + std::to_string(shape.size()) +
                     ". Full shape received: " + shape_str(shape));
  if (shape[3] <= 0)
    throw ValueError("Layer \"" + name() + "\" (Conv2D): the channel dimension of the inputs should be defined. "
                     "Found shape " + shape_str(shape));
  if (built && shape[3] != kernel_->shape()[2])
    throw ValueError("Input 0 of layer \"" + name() + "\" (Conv2D) is incompatible with the layer: expected axis -1 "
                     "of input shape to have value " + std::to_string(kernel_->shape()[2]) +
                     ", but received input with shape " + shape_str(shape));
}

void Conv2D::build(const Shape& input_shape) {
  check_input(input_shape, false);
  kernel_ = add_weight("kernel", {kernel_size_[0], kernel_size_[1], input_shape[3], filters_},
                       options_.kernel_initializer, true,
                       options_.kernel_regularizer, options_.kernel_constraint);
  if (options_.use_bias)
    bias_ = add_weight("bias", {filters_}, options_.bias_initializer, true, options_.bias_regularizer,
                       options_.bias_constraint);
}

Tensor Conv2D::call(const Tensor& inputs, bool) {
  check_input(inputs.shape(), true);
  const Tensor bias = bias_ ? bias_->value() : Tensor();
  const auto fused = activation_.fusable ? activation_.fused : kernels::Eltwise::linear;
  Tensor y = ops::conv2d(inputs, kernel_->value(), bias, options_.strides, options_.padding, options_.dilation_rate,
                         fused);
  return activation_.fusable ? y : activation_(y);
}

Shape Conv2D::compute_output_shape(const Shape& s) const {
  check_input(s, false);
  Shape out{s[0], 0, 0, filters_};
  for (int i = 0; i < 2; ++i) {
    out[i + 1] = ops::conv_output_length(s[i + 1], kernel_size_[i], options_.strides[i], options_.padding,
                                         options_.dilation_rate[i]);
    if (out[i + 1] == 0)
      throw ValueError("Layer \"" + name() + "\" (Conv2D): the kernel " + ops::size2_str(kernel_size_) +
                       " does not fit input of shape " + shape_str(s) + " under \"valid\" padding");
  }
  return out;
}

json Conv2D::get_config() const {
  json c = Layer::get_config();
  c["filters"] = filters_;
  c["kernel_size"] = kernel_size_;
  c["strides"] = options_.strides;
  c["padding"] = options_.padding;
  c["data_format"] = "channels_last";
  c["dilation_rate"] = options_.dilation_rate;
  c["groups"] = 1;
  c["activation"] = activation_.name;
  c["use_bias"] = options_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  regularizers::write_penalty_config(c, options_);
  return c;
}

std::shared_ptr<Layer> Conv2D::from_config(const json& c) {
  if (c.value("data_format", "channels_last") != "channels_last")
    throw ValueError("Conv2D: only data_format=\"channels_last\" is supported, got \"" +
                     c["data_format"].get<std::string>() + "\"");
  if (c.value("groups", 1) != 1) throw ValueError("Conv2D: grouped convolutions (groups > 1) are not supported");
  Conv2DOptions o;
  o.name = c.value("name", "");
  o.strides = read_pair(c, "strides", {1, 1});
  o.padding = c.value("padding", "valid");
  o.dilation_rate = read_pair(c, "dilation_rate", {1, 1});
  o.activation = c.contains("activation") && !c["activation"].is_null() ? c["activation"].get<std::string>() : "linear";
  o.use_bias = c.value("use_bias", true);
  if (c.contains("kernel_initializer")) o.kernel_initializer = initializers::Initializer::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer")) o.bias_initializer = initializers::Initializer::deserialize(c["bias_initializer"]);
  regularizers::read_penalty_config(c, o);
  auto layer = std::make_shared<Conv2D>(c.at("filters").get<std::int64_t>(), read_pair(c, "kernel_size", {0, 0}), o);
  layer->read_base_config(c);
  return layer;
}

namespace {
const bool registered = register_class<Layer, Conv2D>("Conv2D");
}

}  // namespace keras::layers
