#pragma once
// Pooling2D: MaxPooling2D and AveragePooling2D's options and base over channels_last images
// (batch, height, width, channels).
#include "layers/pooling/base_pooling.hpp"

namespace keras::layers {

struct Pooling2DOptions {
  Size2 strides = {0, 0};  // {0, 0}: the pool size, as Keras's strides=None
  std::string padding = "valid";  // "valid" or "same"
  KERAS_LAYER_OPTIONS
};

class Pooling2D : public BasePooling {
 protected:
  Pooling2D(Kind kind, const std::string& class_name, Size2 pool_size, Pooling2DOptions o)
      : BasePooling(kind, class_name,
                    {.rank = 2, .pool_size = {pool_size[0], pool_size[1]},
                     .strides = o.strides == Size2{0, 0} ? Sizes{} : Sizes{o.strides[0], o.strides[1]},
                     .padding = o.padding, .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable}) {}
  Pooling2D(Kind kind, const std::string& class_name, PoolingSpec spec)
      : BasePooling(kind, class_name, std::move(spec)) {}
};

}  // namespace keras::layers
