#pragma once
// GaussianDropout: in training, multiplies by normal noise of mean 1 and variance rate / (1 - rate).
#include "layers/regularization/noise_layer.hpp"

namespace keras::layers {

class GaussianDropout : public NoiseLayer {
 public:
  explicit GaussianDropout(double rate, NoiseOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  std::string class_name() const override { return "GaussianDropout"; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  double rate_;
};

}  // namespace keras::layers
