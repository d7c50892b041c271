#pragma once
// custom_gradient (tf.custom_gradient): an op whose forward pass is any C++ code and whose gradient
// is a function the user writes, recorded on active GradientTapes like any built-in op.
#include <functional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Computes an op's output from its inputs.
using ForwardFn = std::function<Tensor(const std::vector<Tensor>& inputs)>;
/// Given the op's inputs, its output and the gradient of the target with respect to the output
/// (`upstream`), returns one gradient per input, each shaped like its input (an undefined Tensor
/// where an input has no gradient).
using GradientFn =
    std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs, const Tensor& output, const Tensor& upstream)>;

struct CustomGradientOptions {
  /// True when `gradient` computes with keras::ops only: while an outer GradientTape records the backward
  /// pass, its ops are recorded, so the op has second derivatives (tf.custom_gradient's behaviour). False
  /// (the default) when it may use raw loops: a second derivative through the op then throws a
  /// ValueError instead of treating the gradient as a constant.
  bool differentiable_gradient = false;
};

/// Runs `forward(inputs)` and records `gradient` as its backward on every GradientTape that watches an
/// input. The ops run inside `forward` are not recorded: `gradient` alone defines how gradients flow.
/// `name` names the op in error messages: a gradient function that returns the wrong number of
/// gradients, or one of the wrong shape, makes GradientTape::gradient throw a ValueError.
Tensor custom_gradient(const std::string& name, const std::vector<Tensor>& inputs, const ForwardFn& forward,
                       GradientFn gradient, CustomGradientOptions options = {});

/// The one-input form: `forward(x)` gives y, `gradient(x, y, upstream)` gives the gradient for x.
Tensor custom_gradient(const std::string& name, const Tensor& x, const std::function<Tensor(const Tensor& x)>& forward,
                       std::function<Tensor(const Tensor& x, const Tensor& y, const Tensor& upstream)> gradient,
                       CustomGradientOptions options = {});

}  // namespace keras::ops
