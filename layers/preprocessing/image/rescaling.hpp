#pragma once
// Rescaling: inputs * scale + offset (Keras's Rescaling), e.g. scale = 1/255 maps [0, 255] to [0, 1] and
// scale = 1/127.5, offset = -1 to [-1, 1]. Integer inputs become float32.
#include "keras/layer.hpp"

namespace keras::layers {

struct RescalingOptions {
  double offset = 0.0;
  KERAS_LAYER_OPTIONS
};

class Rescaling : public Layer {
 public:
  explicit Rescaling(double scale, RescalingOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  double scale_;
  RescalingOptions options_;

  KERAS_LAYER(Rescaling)
};

}  // namespace keras::layers
