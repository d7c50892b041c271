#pragma once
// Element-wise activation kernels on oneDNN's eltwise primitives, forward and backward.
#include <cstdint>

namespace keras::kernels {

enum class Eltwise : int {
  linear,       // alpha * x + beta (alpha 1, beta 0 for identity)
  relu,         // x > 0 ? x : alpha * x
  clip,         // min(max(x, alpha), beta)
  elu,          // x > 0 ? x : alpha * (exp(x) - 1)
  logistic,     // sigmoid
  tanh,
  gelu_erf,
  gelu_tanh,
  swish,        // x * sigmoid(alpha * x)
  soft_relu,    // softplus: log(1 + exp(x))
  exp,
  log,
  sqrt,
  square,
  abs,
};

/// dst[i] = f(src[i]); src and dst may alias.
void eltwise_forward(Eltwise f, float alpha, float beta, const float* src, float* dst, std::int64_t n);
/// diff_src[i] = f'(src[i]) * diff_dst[i].
void eltwise_backward(Eltwise f, float alpha, float beta, const float* src, const float* diff_dst, float* diff_src,
                      std::int64_t n);

/// The gradient through an activation fused as a post-op, from its output y:
/// diff_src[i] = f'(.) * diff_dst[i] for f in {linear, relu, logistic, tanh} (others throw).
void fused_activation_backward(Eltwise f, const float* y, const float* diff_dst, float* diff_src, std::int64_t n);

/// A dense layer's gradient behind its product, in one pass over [rows, cols]: diff_src as
/// fused_activation_backward gives it (not written when f is linear: it is diff_dst), and the bias's
/// gradient, column_sums[c] = the sum over rows of diff_src[r][c]. Split over the threads by columns, so
/// each sum is one thread's, added row by row.
void fused_activation_backward_with_column_sums(Eltwise f, const float* y, const float* diff_dst, float* diff_src,
                                                float* column_sums, std::int64_t rows, std::int64_t cols);

}  // namespace keras::kernels
