#include "layers/pooling/pooling1d.hpp"

namespace keras::layers {

PoolingSpec pooling1d_spec(std::int64_t pool_size, const Pooling1DOptions& o) {
  return {.rank = 1, .pool_size = {pool_size}, .strides = o.strides == 0 ? Sizes{} : Sizes{o.strides},
          .padding = o.padding, .input_shape = o.input_shape, .name = o.name, .trainable = o.trainable};
}

std::shared_ptr<Layer> MaxPooling1D::from_config(const json& config) { return from_config_as<MaxPooling1D>(config, 1, "MaxPooling1D"); }
std::shared_ptr<Layer> AveragePooling1D::from_config(const json& config) { return from_config_as<AveragePooling1D>(config, 1, "AveragePooling1D"); }

KERAS_REGISTER_LAYER(MaxPooling1D, "MaxPool1D")
KERAS_REGISTER_LAYER(AveragePooling1D, "AvgPool1D")

}  // namespace keras::layers
