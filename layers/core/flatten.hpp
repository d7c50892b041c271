#pragma once
// Flatten: (batch, d1, d2, ...) → (batch, d1 * d2 * ...).
#include "keras/layer.hpp"

namespace keras::layers {

struct FlattenOptions {
  KERAS_LAYER_OPTIONS
};

class Flatten : public Layer {
 public:
  explicit Flatten(FlattenOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(Flatten)
};

}  // namespace keras::layers
