#include "layers/convolutional/conv1d.hpp"

namespace keras::layers {

Conv1D::Conv1D(std::int64_t filters, std::int64_t kernel_size, Conv1DOptions o)
    : BaseConv("Conv1D", conv_spec(1, filters, {kernel_size}, {o.strides}, {o.dilation_rate}, o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv1D::from_config(const json& c) {
  return from_config_as<Conv1D>(c, 1, "Conv1D");
}

KERAS_REGISTER_LAYER(Conv1D, "Convolution1D")

}  // namespace keras::layers
