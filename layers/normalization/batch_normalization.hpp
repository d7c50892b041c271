#pragma once
// BatchNormalization: normalizes each channel with the batch's statistics in training and with
// moving averages of them in inference (tf.keras 2.x semantics, channel axis last by default).
#include <memory>
#include <optional>
#include <vector>

#include "keras/layer.hpp"
#include "keras/ops/normalization.hpp"

namespace keras::layers {

struct BatchNormalizationOptions {
  int axis = -1;  ///< the channel axis (features), kept; statistics are taken over all others
  /// Several kept axes (tf.keras's axis as a list, e.g. {1, 3}); when given, replaces `axis`. The weights then
  /// have the input's rank with 1 on the other axes, as tf.keras makes them.
  std::vector<int> axes{};
  double momentum = 0.99;
  double epsilon = 1e-3;
  bool center = true;  ///< learn beta
  bool scale = true;   ///< learn gamma
  initializers::InitializerRef beta_initializer = "zeros";
  initializers::InitializerRef gamma_initializer = "ones";
  initializers::InitializerRef moving_mean_initializer = "zeros";
  initializers::InitializerRef moving_variance_initializer = "ones";
  regularizers::RegularizerRef beta_regularizer{};
  regularizers::RegularizerRef gamma_regularizer{};
  constraints::ConstraintRef beta_constraint{};
  constraints::ConstraintRef gamma_constraint{};
  KERAS_LAYER_OPTIONS
};

/// training=true: y = gamma * (x - mean_batch) / sqrt(var_batch + epsilon) + beta, and the moving
/// statistics move toward the batch's: moving = moving * momentum + batch * (1 - momentum).
/// training=false, or a frozen layer (trainable=false, as in Keras 2): the moving statistics are used.
/// Weights, in Keras's order: gamma, beta (trainable), moving_mean, moving_variance (non-trainable).
/// Over several axes the statistics are those of tf.keras's non-fused path (the moving variance follows the
/// biased batch variance).
class BatchNormalization : public Layer {
 public:
  explicit BatchNormalization(BatchNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  /// Over the last axis, built: the affine step of its inference form (keras/epilogue.hpp).
  EpilogueStep epilogue_step() const override;
  /// Built over one axis: training with a residual Add and a ReLU fused in (one pass when trainable).
  bool trains_with_epilogue() const override;
  Tensor train_with_epilogue(const Tensor& inputs, const Epilogue& epilogue) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const BatchNormalizationOptions& options() const { return options_; }
  const std::shared_ptr<Variable>& gamma() const { return gamma_; }
  const std::shared_ptr<Variable>& beta() const { return beta_; }
  const std::shared_ptr<Variable>& moving_mean() const { return moving_mean_; }
  const std::shared_ptr<Variable>& moving_variance() const { return moving_variance_; }

 private:
  BatchNormalizationOptions options_;
  /// The forward pass over several axes, through broadcasting ops.
  Tensor call_multi_axis(const Tensor& inputs, bool training);
  /// Training over the one built axis: normalizes with the batch's statistics, then `epilogue`, and moves the
  /// moving statistics toward the batch's.
  Tensor train_one_axis(const Tensor& inputs, const ops::BatchNormEpilogue& epilogue);
  void check_channels(const Tensor& inputs) const;

  bool axis_as_list_ = false;       // the config gave [axis] rather than axis
  std::optional<int> built_axis_;   // non-negative, once built (one axis)
  std::vector<int> built_axes_;     // non-negative and sorted, once built
  std::vector<int> reduction_axes_; // the others, with several axes
  std::shared_ptr<Variable> gamma_, beta_, moving_mean_, moving_variance_;
  struct Folded;  // epilogue_step's scale and shift, kept under the versions of the weights they came from
  std::shared_ptr<Folded> folded_;

  KERAS_LAYER(BatchNormalization)
};

}  // namespace keras::layers
