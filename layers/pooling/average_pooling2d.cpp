#include "layers/pooling/average_pooling2d.hpp"

namespace keras::layers {
namespace {
const bool registered = register_class<Layer, AveragePooling2D>("AveragePooling2D");
}
}  // namespace keras::layers
