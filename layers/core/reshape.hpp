#pragma once
// Reshape: (batch, ...) → (batch, target_shape...); one target dimension may be -1.
#include "keras/layer.hpp"

namespace keras::layers {

struct ReshapeOptions {
  KERAS_LAYER_OPTIONS
};

class Reshape : public Layer {
 public:
  explicit Reshape(const Shape& target_shape, ReshapeOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  Shape target_shape_{};

  KERAS_LAYER(Reshape)
};

}  // namespace keras::layers
