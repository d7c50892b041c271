#include "layers/convolutional/conv2d.hpp"

namespace keras::layers {

Conv2D::Conv2D(std::int64_t filters, Size2 kernel_size, Conv2DOptions o)
    : BaseConv("Conv2D", conv_spec(2, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate), o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv2D::from_config(const json& c) {
  return from_config_as<Conv2D>(c, 2, "Conv2D");
}

KERAS_REGISTER_LAYER(Conv2D)

}  // namespace keras::layers
