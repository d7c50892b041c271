#pragma once
// AlphaDropout: dropout for SELU networks. In training, dropped units take SELU's negative saturation
// value and an affine correction keeps the mean and variance of the inputs.
#include "layers/regularization/noise_layer.hpp"

namespace keras::layers {

class AlphaDropout : public NoiseLayer {
 public:
  explicit AlphaDropout(double rate, NoiseOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// The output for given inputs and a keep mask (1 kept, 0 dropped): a * (x * keep + alpha_p * (1 - keep)) + b.
  Tensor apply_mask(const Tensor& inputs, const Tensor& keep) const;

 private:
  double rate_;

  KERAS_LAYER(AlphaDropout)
};

}  // namespace keras::layers
