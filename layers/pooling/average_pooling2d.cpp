#include "layers/pooling/average_pooling2d.hpp"

namespace keras::layers {

std::shared_ptr<Layer> AveragePooling2D::from_config(const json& config) { return from_config_as<AveragePooling2D>(config, 2, "AveragePooling2D"); }

KERAS_REGISTER_LAYER(AveragePooling2D)
}  // namespace keras::layers
