#include "layers/convolutional/separable_conv.hpp"

#include "keras/json.hpp"

namespace keras::layers {

BaseSeparableConv::BaseSeparableConv(const std::string& class_name, ConvSpec spec)
    : BaseConv(class_name, std::move(spec)) {
  if (spec_.filters <= 0)
    throw ValueError(cls_ + ": invalid value for argument `filters`. Expected a strictly positive value. Received "
                            "filters=" + std::to_string(spec_.filters));
}

void BaseSeparableConv::build(const Shape& input_shape) {
  check_input(input_shape, false);
  const auto in = input_shape.back(), m = spec_.depth_multiplier;
  Shape dk(spec_.kernel_size.begin(), spec_.kernel_size.end());
  dk.push_back(in);
  dk.push_back(m);
  kernel_ = add_weight("depthwise_kernel", dk, spec_.depthwise_initializer, true, spec_.depthwise_regularizer,
                       spec_.depthwise_constraint);
  Shape pk(spec_.rank, 1);
  pk.push_back(in * m);
  pk.push_back(spec_.filters);
  pointwise_ = add_weight("pointwise_kernel", pk, spec_.pointwise_initializer, true, spec_.pointwise_regularizer,
                          spec_.pointwise_constraint);
  if (spec_.use_bias)
    bias_ = add_weight("bias", {spec_.filters}, spec_.bias_initializer, true, spec_.bias_regularizer,
                       spec_.bias_constraint);
}

Tensor BaseSeparableConv::convolve(const Tensor& x, kernels::Eltwise fused) {
  Tensor z = ops::conv(x, depthwise_as_grouped(kernel_->value()), Tensor(), spec_.strides, spec_.padding,
                       spec_.dilation_rate, x.dim(-1));
  return ops::conv(z, pointwise_->value(), bias_ ? bias_->value() : Tensor(), {}, "valid", {}, 1, fused);
}

json BaseSeparableConv::get_config() const {
  json c = BaseConv::get_config();
  c["depth_multiplier"] = spec_.depth_multiplier;
  c["depthwise_initializer"] = initializers::serialize(*spec_.depthwise_initializer);
  c["pointwise_initializer"] = initializers::serialize(*spec_.pointwise_initializer);
  c["depthwise_regularizer"] = regularizers::serialize(spec_.depthwise_regularizer);
  c["pointwise_regularizer"] = regularizers::serialize(spec_.pointwise_regularizer);
  c["depthwise_constraint"] = constraints::serialize(spec_.depthwise_constraint);
  c["pointwise_constraint"] = constraints::serialize(spec_.pointwise_constraint);
  return c;
}

SeparableConv1D::SeparableConv1D(std::int64_t filters, std::int64_t kernel_size, SeparableConv1DOptions o)
    : BaseSeparableConv("SeparableConv1D", with_separable_penalties(
                        {.rank = 1, .filters = filters, .kernel_size = {kernel_size}, .strides = {o.strides},
                         .dilation_rate = {o.dilation_rate}, .padding = o.padding, .activation = o.activation,
                         .use_bias = o.use_bias, .bias_initializer = o.bias_initializer,
                         .depth_multiplier = o.depth_multiplier, .depthwise_initializer = o.depthwise_initializer,
                         .pointwise_initializer = o.pointwise_initializer, .input_shape = o.input_shape,
                         .name = o.name, .trainable = o.trainable}, o)) {}

SeparableConv2D::SeparableConv2D(std::int64_t filters, Size2 kernel_size, SeparableConv2DOptions o)
    : BaseSeparableConv("SeparableConv2D", with_separable_penalties(
                        {.rank = 2, .filters = filters, .kernel_size = {kernel_size[0], kernel_size[1]},
                         .strides = {o.strides[0], o.strides[1]},
                         .dilation_rate = {o.dilation_rate[0], o.dilation_rate[1]}, .padding = o.padding,
                         .activation = o.activation, .use_bias = o.use_bias, .bias_initializer = o.bias_initializer,
                         .depth_multiplier = o.depth_multiplier, .depthwise_initializer = o.depthwise_initializer,
                         .pointwise_initializer = o.pointwise_initializer, .input_shape = o.input_shape,
                         .name = o.name, .trainable = o.trainable}, o)) {}

std::shared_ptr<Layer> SeparableConv1D::from_config(const json& c) {
  return from_config_as<SeparableConv1D>(c, 1, "SeparableConv1D");
}
std::shared_ptr<Layer> SeparableConv2D::from_config(const json& c) {
  return from_config_as<SeparableConv2D>(c, 2, "SeparableConv2D");
}

KERAS_REGISTER_LAYER(SeparableConv1D, "SeparableConvolution1D")
KERAS_REGISTER_LAYER(SeparableConv2D, "SeparableConvolution2D")

}  // namespace keras::layers
