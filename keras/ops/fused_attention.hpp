#pragma once
// Attention's core over a stack of heads, softmax(q kᵀ) v, as one op without the attention weights as a
// tensor (keras/kernels/attention.hpp), for MultiHeadAttention when no mask and no dropout apply.
#include "keras/tensor.hpp"

namespace keras::ops {

/// softmax(q kᵀ) v for q [n, t, d], k [n, s, d] and v [n, s, dv], or per head for Keras's [batch, t, heads, d]
/// (k [batch, s, heads, d], v [batch, s, heads, dv]; the output alike), float32 with q already scaled, where
/// kernels::attention_fits serves the shapes on this CPU; otherwise an undefined Tensor, and the caller runs
/// the ops one by one. Records gradients for q, k and v: the backward recomputes the weights from q, k and
/// each row's log-sum-exp; under an outer tape it runs as recorded ops, so that it differentiates again.
Tensor fused_attention(const Tensor& q, const Tensor& k, const Tensor& v);

}  // namespace keras::ops
