#include "layers/pooling/max_pooling2d.hpp"

namespace keras::layers {

std::shared_ptr<Layer> MaxPooling2D::from_config(const json& config) { return from_config_as<MaxPooling2D>(config, 2, "MaxPooling2D"); }

KERAS_REGISTER_LAYER(MaxPooling2D)
}  // namespace keras::layers
