#pragma once
// ActivityRegularization: passes its input through and adds l1 * sum|x| + l2 * sum x² (divided by the
// batch size, as every activity regularizer in tf.keras 2.x) to the layer's losses.
#include "keras/layer.hpp"

namespace keras::layers {

struct ActivityRegularizationOptions {
  double l1 = 0.0;
  double l2 = 0.0;
  KERAS_LAYER_OPTIONS
};

class ActivityRegularization : public Layer {
 public:
  explicit ActivityRegularization(ActivityRegularizationOptions options = {});
  Tensor call(const Tensor& inputs, bool) override { return inputs; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  ActivityRegularizationOptions options_;

  KERAS_LAYER(ActivityRegularization)
};

}  // namespace keras::layers
