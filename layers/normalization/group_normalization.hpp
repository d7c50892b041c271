#pragma once
// GroupNormalization: splits the channels (`axis`, the last by default) into `groups` groups and normalizes
// each sample over every group (its channels and all non-batch axes), then scales by gamma and shifts by beta
// per channel (tf.keras 2.11+ semantics; groups = channels is instance normalization, 1 is layer norm).
#include "keras/layer.hpp"
#include "keras/regularizers/regularizer.hpp"

namespace keras::layers {

struct GroupNormalizationOptions {
  int axis = -1;
  double epsilon = 1e-3;
  bool center = true;
  bool scale = true;
  initializers::InitializerRef beta_initializer = "zeros";
  initializers::InitializerRef gamma_initializer = "ones";
  regularizers::RegularizerRef beta_regularizer{};
  regularizers::RegularizerRef gamma_regularizer{};
  constraints::ConstraintRef beta_constraint{};
  constraints::ConstraintRef gamma_constraint{};
  KERAS_LAYER_OPTIONS
};

class GroupNormalization : public Layer {
 public:
  explicit GroupNormalization(std::int64_t groups = 32, GroupNormalizationOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const std::shared_ptr<Variable>& gamma() const { return gamma_; }
  const std::shared_ptr<Variable>& beta() const { return beta_; }

 private:
  std::int64_t groups_;
  GroupNormalizationOptions options_;
  std::shared_ptr<Variable> gamma_, beta_;

  KERAS_LAYER(GroupNormalization)
};

}  // namespace keras::layers
