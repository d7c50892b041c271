#pragma once
// MaxPooling3D and AveragePooling3D: the maximum / mean (padding excluded) over pool_size windows
// of channels_last volumes (batch, depth, height, width, channels).
#include "layers/pooling/base_pooling.hpp"

namespace keras::layers {

struct Pooling3DOptions {
  Size3 strides = {0, 0, 0};  // {0, 0, 0}: the pool size, as Keras's strides=None
  std::string padding = "valid";  // "valid" or "same"
  KERAS_LAYER_OPTIONS
};
using MaxPooling3DOptions = Pooling3DOptions;
using AveragePooling3DOptions = Pooling3DOptions;

/// Pooling3DOptions as the rank-generic arguments.
PoolingSpec pooling3d_spec(Size3 pool_size, const Pooling3DOptions& options);

class MaxPooling3D : public BasePooling {
 public:
  explicit MaxPooling3D(Size3 pool_size = {2, 2, 2}, Pooling3DOptions options = {})
      : MaxPooling3D(pooling3d_spec(pool_size, options)) {}
  explicit MaxPooling3D(PoolingSpec spec) : BasePooling(Kind::max, "MaxPooling3D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(MaxPooling3D)
};

class AveragePooling3D : public BasePooling {
 public:
  explicit AveragePooling3D(Size3 pool_size = {2, 2, 2}, Pooling3DOptions options = {})
      : AveragePooling3D(pooling3d_spec(pool_size, options)) {}
  explicit AveragePooling3D(PoolingSpec spec) : BasePooling(Kind::average, "AveragePooling3D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(AveragePooling3D)
};

}  // namespace keras::layers
