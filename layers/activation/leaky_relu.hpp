#pragma once
// LeakyReLU layer: x for x > 0, alpha * x otherwise (tf.keras 2.x default alpha 0.3).
#include "keras/layer.hpp"

namespace keras::layers {

struct LeakyReLUOptions {
  KERAS_LAYER_OPTIONS
};

class LeakyReLU : public Layer {
 public:
  explicit LeakyReLU(double alpha = 0.3, LeakyReLUOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  double alpha() const { return alpha_; }

 private:
  double alpha_;

  KERAS_LAYER(LeakyReLU)
};

}  // namespace keras::layers
