#pragma once
// The derivatives of the eltwise activations written with recorded keras::ops: the backward that
// ops::eltwise, ops::dense and the fused convolutions use while an outer tape records the backward pass
// (so gradients of gradients flow through them). The first-order pass keeps oneDNN's backward kernels.
#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras::ops::detail {

/// f'(x), given x and y = f(x), as recorded ops (a scalar for `linear`). Piecewise-constant derivatives
/// (relu, clip, abs) come from oneDNN's backward kernel: their own derivative is zero where defined.
Tensor eltwise_derivative(kernels::Eltwise f, float alpha, float beta, const Tensor& x, const Tensor& y);

/// g * f'(z) for an activation fused into a matrix product or convolution, from its output y = f(z)
/// alone (linear, relu, logistic, tanh).
Tensor fused_activation_grad(kernels::Eltwise f, const Tensor& g, const Tensor& y);

}  // namespace keras::ops::detail
