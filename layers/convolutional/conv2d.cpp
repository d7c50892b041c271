#include "layers/convolutional/conv2d.hpp"

#include "keras/json.hpp"

namespace keras::layers {

Conv2D::Conv2D(std::int64_t filters, Size2 kernel_size, Conv2DOptions o)
    : BaseConv("Conv2D", with_penalties({.rank = 2, .filters = filters, .kernel_size = {kernel_size[0], kernel_size[1]},
                          .strides = {o.strides[0], o.strides[1]},
                          .dilation_rate = {o.dilation_rate[0], o.dilation_rate[1]}, .padding = o.padding,
                          .groups = o.groups, .activation = o.activation, .use_bias = o.use_bias,
                          .kernel_initializer = o.kernel_initializer, .bias_initializer = o.bias_initializer,
                          .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable}, o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv2D::from_config(const json& c) {
  return from_config_as<Conv2D>(c, 2, "Conv2D");
}

KERAS_REGISTER_LAYER(Conv2D)

}  // namespace keras::layers
