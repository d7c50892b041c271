#pragma once
// ReLU layer: x for x > threshold (capped at max_value), negative_slope * (x - threshold) otherwise.
#include <optional>

#include "keras/layer.hpp"

namespace keras::layers {

struct ReLUOptions {
  std::optional<double> max_value{};
  double negative_slope = 0.0;
  double threshold = 0.0;
  KERAS_LAYER_OPTIONS
};

class ReLU : public Layer {
 public:
  explicit ReLU(ReLUOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  /// Plain max(x, 0) (the default options) is an activation step of a fused epilogue.
  EpilogueStep epilogue_step() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  ReLUOptions options_;

  KERAS_LAYER(ReLU)
};

}  // namespace keras::layers
