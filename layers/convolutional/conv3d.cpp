#include "layers/convolutional/conv3d.hpp"

namespace keras::layers {

Conv3D::Conv3D(std::int64_t filters, Size3 kernel_size, Conv3DOptions o)
    : BaseConv("Conv3D", conv_spec(3, filters, sizes(kernel_size), sizes(o.strides), sizes(o.dilation_rate), o)) {
  if (filters <= 0)
    throw ValueError("Invalid value for argument `filters`. Expected a strictly positive value. Received filters=" +
                     std::to_string(filters));
}

std::shared_ptr<Layer> Conv3D::from_config(const json& c) {
  return from_config_as<Conv3D>(c, 3, "Conv3D");
}

KERAS_REGISTER_LAYER(Conv3D, "Convolution3D")

}  // namespace keras::layers
