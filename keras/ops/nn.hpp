#pragma once
// Differentiable neural-network ops on oneDNN: matrix products with fused bias and activation,
// activations, softmax, and fused softmax cross-entropy.
#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras::ops {

/// a [.., k] @ b [k, n]; leading dimensions of a are treated as rows.
Tensor matmul(const Tensor& a, const Tensor& b);
/// act(x @ kernel + bias) in one oneDNN primitive. `bias` may be undefined. The fused activation
/// must be linear, relu, logistic or tanh (their gradients come from the output).
Tensor dense(const Tensor& x, const Tensor& kernel, const Tensor& bias,
             kernels::Eltwise activation = kernels::Eltwise::linear);
/// Adds a bias vector over the last axis.
Tensor bias_add(const Tensor& x, const Tensor& bias);

/// An element-wise activation computed by oneDNN (see kernels::Eltwise for alpha and beta).
Tensor eltwise(const Tensor& x, kernels::Eltwise f, float alpha = 0.f, float beta = 0.f);
Tensor relu(const Tensor& x, float negative_slope = 0.f);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softplus(const Tensor& x);

/// Softmax / log-softmax over `axis` (any axis; the last one runs on oneDNN directly, others through a transpose).
Tensor softmax(const Tensor& x, int axis = -1);
Tensor log_softmax(const Tensor& x, int axis = -1);

/// Per-row -log softmax(logits)[label]; labels are integer class ids shaped like logits without the last axis.
Tensor sparse_softmax_cross_entropy(const Tensor& labels, const Tensor& logits);
/// Per-row -sum(target * log_softmax(logits)) over the last axis.
Tensor softmax_cross_entropy(const Tensor& target, const Tensor& logits);

}  // namespace keras::ops
