#include "layers/pooling/pooling3d.hpp"

namespace keras::layers {

PoolingSpec pooling3d_spec(Size3 pool_size, const Pooling3DOptions& o) {
  return {.rank = 3, .pool_size = {pool_size.begin(), pool_size.end()},
          .strides = o.strides == Size3{0, 0, 0} ? Sizes{} : Sizes{o.strides.begin(), o.strides.end()},
          .padding = o.padding, .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable};
}

std::shared_ptr<Layer> MaxPooling3D::from_config(const json& config) { return from_config_as<MaxPooling3D>(config, 3, "MaxPooling3D"); }
std::shared_ptr<Layer> AveragePooling3D::from_config(const json& config) { return from_config_as<AveragePooling3D>(config, 3, "AveragePooling3D"); }

KERAS_REGISTER_LAYER(MaxPooling3D, "MaxPool3D")
KERAS_REGISTER_LAYER(AveragePooling3D, "AvgPool3D")

}  // namespace keras::layers
