#pragma once
// MaxPooling2D: the maximum over pool_size windows of channels_last images.
#include "layers/pooling/pooling2d.hpp"

namespace keras::layers {

using MaxPooling2DOptions = Pooling2DOptions;

class MaxPooling2D : public Pooling2D {
 public:
  explicit MaxPooling2D(Size2 pool_size = {2, 2}, Pooling2DOptions options = {})
      : Pooling2D(Kind::max, "MaxPooling2D", pool_size, std::move(options)) {}
  explicit MaxPooling2D(PoolingSpec spec) : Pooling2D(Kind::max, "MaxPooling2D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(MaxPooling2D)
};

}  // namespace keras::layers
