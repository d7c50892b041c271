#pragma once
// GaussianDropout: in training, multiplies by normal noise of mean 1 and variance rate / (1 - rate).
#include "layers/regularization/noise_layer.hpp"

namespace keras::layers {

class GaussianDropout : public NoiseLayer {
 public:
  explicit GaussianDropout(double rate, NoiseOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  double rate_;

  KERAS_LAYER(GaussianDropout)
};

}  // namespace keras::layers
