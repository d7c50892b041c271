#pragma once
// EinsumDense: activation(einsum(equation, inputs, kernel) + bias), the kernel's shape read from the equation
// and `output_shape` (Keras's analysis: "ab,bc->ac", "abc,cd->abd", "abc,cde->abde", "...b,bc->...c",
// "ab...,bc->ac..."). The product is ops::einsum (a transpose, a (batched) matrix product on oneDNN and a
// reshape), so its gradients come from those ops.
#include <string>

#include "keras/activations.hpp"
#include "keras/layer.hpp"

namespace keras::layers {

struct EinsumDenseOptions {
  activations::ActivationRef activation = "linear";
  /// Output letters that get a bias (e.g. "c"); empty: no bias.
  std::string bias_axes{};
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  initializers::InitializerRef bias_initializer = "zeros";
  regularizers::RegularizerRef kernel_regularizer{};
  regularizers::RegularizerRef bias_regularizer{};
  regularizers::RegularizerRef activity_regularizer{};
  constraints::ConstraintRef kernel_constraint{};
  constraints::ConstraintRef bias_constraint{};
  KERAS_LAYER_OPTIONS
};

class EinsumDense : public Layer {
 public:
  /// `output_shape`: the output's sizes without the batch axis and the elided ("...") axes; -1 for None
  /// (taken from the input).
  EinsumDense(std::string equation, Shape output_shape, EinsumDenseOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  const std::string& equation() const { return equation_; }
  const std::shared_ptr<Variable>& kernel() const { return kernel_; }
  const std::shared_ptr<Variable>& bias() const { return bias_; }

  /// The shapes an equation gives for inputs of `input_shape` (Keras's _analyze_einsum_string).
  struct Analysis {
    std::string input, weight, output;  // the labels, "..." spelled out as upper-case letters
    Shape kernel, bias, output_shape;   // bias empty: none
  };
  Analysis analyze(const Shape& input_shape) const;

 private:
  std::string equation_;
  Shape partial_output_shape_;
  EinsumDenseOptions options_;
  activations::Activation activation_;
  Analysis built_;
  std::shared_ptr<Variable> kernel_, bias_;

  KERAS_LAYER(EinsumDense)
};

}  // namespace keras::layers
