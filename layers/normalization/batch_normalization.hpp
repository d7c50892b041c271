#pragma once
// BatchNormalization: normalizes each channel with the batch's statistics in training and with
// moving averages of them in inference (tf.keras 2.x semantics, channel axis last by default).
#include <optional>

#include "keras/layer.hpp"

namespace keras::layers {

struct BatchNormalizationOptions {
  int axis = -1;  ///< the channel axis (features), kept; statistics are taken over all others
  double momentum = 0.99;
  double epsilon = 1e-3;
  bool center = true;  ///< learn beta
  bool scale = true;   ///< learn gamma
  initializers::InitializerRef beta_initializer = "zeros";
  initializers::InitializerRef gamma_initializer = "ones";
  initializers::InitializerRef moving_mean_initializer = "zeros";
  initializers::InitializerRef moving_variance_initializer = "ones";
  KERAS_LAYER_OPTIONS
};

/// training=true: y = gamma * (x - mean_batch) / sqrt(var_batch + epsilon) + beta, and the moving
/// statistics move toward the batch's: moving = moving * momentum + batch * (1 - momentum).
/// training=false, or a frozen layer (trainable=false, as in Keras 2): the moving statistics are used.
/// Weights, in Keras's order: gamma, beta (trainable), moving_mean, moving_variance (non-trainable).
class BatchNormalization : public Layer {
 public:
  explicit BatchNormalization(BatchNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const BatchNormalizationOptions& options() const { return options_; }
  const std::shared_ptr<Variable>& gamma() const { return gamma_; }
  const std::shared_ptr<Variable>& beta() const { return beta_; }
  const std::shared_ptr<Variable>& moving_mean() const { return moving_mean_; }
  const std::shared_ptr<Variable>& moving_variance() const { return moving_variance_; }

 private:
  BatchNormalizationOptions options_;
  bool axis_as_list_ = false;       // the config gave [axis] rather than axis
  std::optional<int> built_axis_;   // non-negative, once built
  std::shared_ptr<Variable> gamma_, beta_, moving_mean_, moving_variance_;

  KERAS_LAYER(BatchNormalization)
};

}  // namespace keras::layers
