#include "layers/convolutional/conv3d.hpp"

#include "keras/json.hpp"

namespace keras::layers {

Conv3D::Conv3D(std::int64_t filters, Size3 kernel_size, Conv3DOptions o)
    : BaseConv("Conv3D", with_penalties({.rank = 3, .filters = filters, .kernel_size = {kernel_size.begin(), kernel_size.end()}, .strides = {o.strides.begin(), o.strides.end()},
                          .dilation_rate = {o.dilation_rate.begin(), o.dilation_rate.end()}, .padding = o.padding, .groups = o.groups,
                          .activation = o.activation, .use_bias = o.use_bias,
                          .kernel_initializer = o.kernel_initializer, .bias_initializer = o.bias_initializer,
                          .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable}, o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv3D::from_config(const json& c) {
  return from_config_as<Conv3D>(c, 3, "Conv3D");
}

KERAS_REGISTER_LAYER(Conv3D, "Convolution3D")

}  // namespace keras::layers
