#pragma once
// Dense: activation(inputs @ kernel + bias), kernel [in, out], applied over the last axis.
#include "keras/activations.hpp"
#include "keras/layer.hpp"

namespace keras::layers {

struct DenseOptions {
  activations::ActivationRef activation = "linear";
  bool use_bias = true;
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

class Dense : public Layer {
 public:
  explicit Dense(std::int64_t units, DenseOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  std::int64_t units() const { return units_; }
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

 private:
  std::int64_t units_;
  DenseOptions options_;
  activations::Activation activation_;
  std::shared_ptr<Variable> kernel_, bias_;

  KERAS_LAYER(Dense)
};

}  // namespace keras::layers
