#pragma once
// LayerNormalization: normalizes each sample over `axis` (the last by default) with its own mean and
// variance, then scales by gamma and shifts by beta (tf.keras 2.x semantics).
#include <vector>

#include "keras/layer.hpp"

namespace keras::layers {

struct LayerNormalizationOptions {
  std::vector<int> axis = {-1};  ///< contiguous axes normalized together; gamma and beta take their shape
  double epsilon = 1e-3;
  bool center = true;  ///< learn beta
  bool scale = true;   ///< learn gamma
  /// Keras 3: x / sqrt(var(x) + epsilon) * gamma, without centering (center and scale ignored; gamma only).
  bool rms_scaling = false;
  initializers::InitializerRef beta_initializer = "zeros";
  initializers::InitializerRef gamma_initializer = "ones";
  regularizers::RegularizerRef beta_regularizer{};
  regularizers::RegularizerRef gamma_regularizer{};
  constraints::ConstraintRef beta_constraint{};
  constraints::ConstraintRef gamma_constraint{};
  KERAS_LAYER_OPTIONS
};

/// y = gamma * (x - mean) / sqrt(var + epsilon) + beta, statistics per sample over `axis`
/// (biased variance), the same in training and inference. Weights: gamma, beta.
class LayerNormalization : public Layer {
 public:
  explicit LayerNormalization(LayerNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const LayerNormalizationOptions& options() const { return options_; }
  const std::shared_ptr<Variable>& gamma() const { return gamma_; }
  const std::shared_ptr<Variable>& beta() const { return beta_; }

 private:
  LayerNormalizationOptions options_;
  bool axis_as_int_ = true;       // the config gave axis rather than [axis]
  std::vector<int> built_axes_;   // non-negative and sorted, once built
  std::shared_ptr<Variable> gamma_, beta_;

  KERAS_LAYER(LayerNormalization)
};

}  // namespace keras::layers
