#pragma once
// MaxPooling1D and AveragePooling1D: the maximum / mean (padding excluded) over pool_size windows
// of channels_last sequences (batch, steps, channels).
#include "layers/pooling/base_pooling.hpp"

namespace keras::layers {

struct Pooling1DOptions {
  std::int64_t strides = 0;  // 0: the pool size, as Keras's strides=None
  std::string padding = "valid";  // "valid" or "same"
  KERAS_LAYER_OPTIONS
};
using MaxPooling1DOptions = Pooling1DOptions;
using AveragePooling1DOptions = Pooling1DOptions;

/// Pooling1DOptions as the rank-generic arguments.
PoolingSpec pooling1d_spec(std::int64_t pool_size, const Pooling1DOptions& options);

class MaxPooling1D : public BasePooling {
 public:
  explicit MaxPooling1D(std::int64_t pool_size = 2, Pooling1DOptions options = {})
      : MaxPooling1D(pooling1d_spec(pool_size, options)) {}
  explicit MaxPooling1D(PoolingSpec spec) : BasePooling(Kind::max, "MaxPooling1D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(MaxPooling1D)
};

class AveragePooling1D : public BasePooling {
 public:
  explicit AveragePooling1D(std::int64_t pool_size = 2, Pooling1DOptions options = {})
      : AveragePooling1D(pooling1d_spec(pool_size, options)) {}
  explicit AveragePooling1D(PoolingSpec spec) : BasePooling(Kind::average, "AveragePooling1D", std::move(spec)) {}
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(AveragePooling1D)
};

}  // namespace keras::layers
