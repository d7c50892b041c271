#include "layers/convolutional/depthwise_conv.hpp"

#include "keras/json.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

Tensor depthwise_as_grouped(const Tensor& k) {
  Shape s = k.shape();
  const auto m = s.back();
  s.pop_back();
  s.back() *= m;
  s.insert(s.end() - 1, 1);
  return ops::reshape(k, s);
}

void BaseDepthwiseConv::build(const Shape& input_shape) {
  check_input(input_shape, false);
  Shape k(spec_.kernel_size.begin(), spec_.kernel_size.end());
  k.push_back(input_shape.back());
  k.push_back(spec_.depth_multiplier);
  kernel_ = add_weight("depthwise_kernel", k, spec_.depthwise_initializer, true, spec_.depthwise_regularizer,
                       spec_.depthwise_constraint);
  if (spec_.use_bias)
    bias_ = add_weight("bias", {input_shape.back() * spec_.depth_multiplier}, spec_.bias_initializer, true,
                       spec_.bias_regularizer, spec_.bias_constraint);
}

Tensor BaseDepthwiseConv::convolve(const Tensor& x, kernels::Eltwise fused) {
  return ops::conv(x, depthwise_as_grouped(kernel_->value()), bias_ ? bias_->value() : Tensor(), spec_.strides,
                   spec_.padding, spec_.dilation_rate, x.dim(-1), fused);
}

json BaseDepthwiseConv::get_config() const { return conv_config({.kernel = false, .depthwise = true}); }

DepthwiseConv1D::DepthwiseConv1D(std::int64_t kernel_size, DepthwiseConv1DOptions o)
    : BaseDepthwiseConv("DepthwiseConv1D", conv_spec(1, 0, {kernel_size}, {o.strides}, {o.dilation_rate}, o)) {}

DepthwiseConv2D::DepthwiseConv2D(Size2 kernel_size, DepthwiseConv2DOptions o)
    : BaseDepthwiseConv("DepthwiseConv2D",
                        conv_spec(2, 0, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate), o)) {}

std::shared_ptr<Layer> DepthwiseConv1D::from_config(const json& c) {
  return from_config_as<DepthwiseConv1D>(c, 1, "DepthwiseConv1D");
}
std::shared_ptr<Layer> DepthwiseConv2D::from_config(const json& c) {
  return from_config_as<DepthwiseConv2D>(c, 2, "DepthwiseConv2D");
}

KERAS_REGISTER_LAYER(DepthwiseConv1D)
KERAS_REGISTER_LAYER(DepthwiseConv2D)

}  // namespace keras::layers
