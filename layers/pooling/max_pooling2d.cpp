#include "layers/pooling/max_pooling2d.hpp"

namespace keras::layers {
namespace {
const bool registered = register_class<Layer, MaxPooling2D>("MaxPooling2D");
}
}  // namespace keras::layers
