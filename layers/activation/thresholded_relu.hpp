#pragma once
// ThresholdedReLU (tf.keras 2.x): x where x > theta, 0 elsewhere; theta >= 0, default 1.
#include "keras/layer.hpp"

namespace keras::layers {

struct ThresholdedReLUOptions {
  KERAS_LAYER_OPTIONS
};

class ThresholdedReLU : public Layer {
 public:
  explicit ThresholdedReLU(double theta = 1.0, ThresholdedReLUOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  double theta() const { return theta_; }

 private:
  double theta_;

  KERAS_LAYER(ThresholdedReLU)
};

}  // namespace keras::layers
