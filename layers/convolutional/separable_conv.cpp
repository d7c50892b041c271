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

json BaseSeparableConv::get_config() const { return conv_config({.depthwise = true, .pointwise = true}); }

SeparableConv1D::SeparableConv1D(std::int64_t filters, std::int64_t kernel_size, SeparableConv1DOptions o)
    : BaseSeparableConv("SeparableConv1D", conv_spec(1, filters, {kernel_size}, {o.strides}, {o.dilation_rate}, o)) {}

SeparableConv2D::SeparableConv2D(std::int64_t filters, Size2 kernel_size, SeparableConv2DOptions o)
    : BaseSeparableConv("SeparableConv2D",
                        conv_spec(2, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate), o)) {}

std::shared_ptr<Layer> SeparableConv1D::from_config(const json& c) {
  return from_config_as<SeparableConv1D>(c, 1, "SeparableConv1D");
}
std::shared_ptr<Layer> SeparableConv2D::from_config(const json& c) {
  return from_config_as<SeparableConv2D>(c, 2, "SeparableConv2D");
}

KERAS_REGISTER_LAYER(SeparableConv1D, "SeparableConvolution1D")
KERAS_REGISTER_LAYER(SeparableConv2D, "SeparableConvolution2D")

}  // namespace keras::layers
