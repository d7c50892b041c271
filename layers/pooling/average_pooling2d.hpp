#pragma once
// AveragePooling2D: the mean (padding excluded) over pool_size windows of channels_last images.
#include "layers/pooling/pooling2d.hpp"

namespace keras::layers {

using AveragePooling2DOptions = Pooling2DOptions;

class AveragePooling2D : public Pooling2D {
 public:
  explicit AveragePooling2D(Size2 pool_size = {2, 2}, Pooling2DOptions options = {})
      : Pooling2D(Kind::average, "AveragePooling2D", pool_size, std::move(options)) {}
  explicit AveragePooling2D(PoolingSpec spec) : Pooling2D(Kind::average, "AveragePooling2D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(AveragePooling2D)
};

}  // namespace keras::layers
