#pragma once
// GaussianNoise: in training, adds zero-centred normal noise of standard deviation `stddev`.
#include "layers/regularization/noise_layer.hpp"

namespace keras::layers {

class GaussianNoise : public NoiseLayer {
 public:
  explicit GaussianNoise(double stddev, NoiseOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  double stddev_;

  KERAS_LAYER(GaussianNoise)
};

}  // namespace keras::layers
