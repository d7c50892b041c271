#include "layers/convolutional/conv1d.hpp"

#include "keras/json.hpp"

namespace keras::layers {

Conv1D::Conv1D(std::int64_t filters, std::int64_t kernel_size, Conv1DOptions o)
    : BaseConv("Conv1D", with_penalties({.rank = 1, .filters = filters, .kernel_size = {kernel_size}, .strides = {o.strides},
                          .dilation_rate = {o.dilation_rate}, .padding = o.padding, .groups = o.groups,
                          .activation = o.activation, .use_bias = o.use_bias,
                          .kernel_initializer = o.kernel_initializer, .bias_initializer = o.bias_initializer,
                          .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable}, o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv1D::from_config(const json& c) {
  return from_config_as<Conv1D>(c, 1, "Conv1D");
}

KERAS_REGISTER_LAYER(Conv1D, "Convolution1D")

}  // namespace keras::layers
