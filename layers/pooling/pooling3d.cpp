#include "layers/pooling/pooling3d.hpp"

namespace keras::layers {

PoolingSpec pooling3d_spec(Size3 pool_size, const Pooling3DOptions& o) {
  return {.rank = 3, .pool_size = {pool_size.begin(), pool_size.end()},
          .strides = o.strides == Size3{0, 0, 0} ? Sizes{} : Sizes{o.strides.begin(), o.strides.end()},
          .padding = o.padding, .input_shape = o.input_shape, .name = o.name};
}

namespace {
const bool registered_max = register_class<Layer, MaxPooling3D>("MaxPooling3D", {"MaxPool3D"});
const bool registered_avg = register_class<Layer, AveragePooling3D>("AveragePooling3D", {"AvgPool3D"});
}  // namespace

}  // namespace keras::layers
