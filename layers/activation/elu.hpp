#pragma once
// ELU layer: x for x > 0, alpha * (exp(x) - 1) otherwise.
#include "keras/layer.hpp"

namespace keras::layers {

struct ELUOptions {
  KERAS_LAYER_OPTIONS
};

class ELU : public Layer {
 public:
  explicit ELU(double alpha = 1.0, ELUOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  double alpha_;

  KERAS_LAYER(ELU)
};

}  // namespace keras::layers
