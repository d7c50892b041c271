#pragma once
// Scaled dot-product attention over a stack of heads, softmax(Q K^T) V, without writing the attention
// weights out: each head's T x S scores live in the thread's scratch (in L2) from the product that makes
// them to the product that uses them. The backward recomputes them from Q, K and the rows' log-sum-exp kept
// by the forward. Kept out: masks and dropout on the weights (the caller runs the ops one by one then).
#include <cstdint>

namespace keras::kernels {

struct AttentionArgs {
  std::int64_t n = 0;   // heads in the stack (batch x heads)
  std::int64_t t = 0;   // query positions
  std::int64_t s = 0;   // key / value positions
  std::int64_t d = 0;   // query and key depth
  std::int64_t dv = 0;  // value depth
  std::int64_t h = 1;   // heads side by side in each position's row (Keras's [batch, t, heads, d]); 1: plain stacks
};

/// Whether these kernels serve the shapes on this CPU (AVX2 or AVX-512, our own kernels allowed, at least as
/// many heads as threads, a head's scores within 512 x 512).
bool attention_fits(const AttentionArgs& a);

/// o [n, t, dv] = softmax(q [n, t, d] k [n, s, d]^T) v [n, s, dv], row-major stacks (q already scaled), or,
/// with h > 1, the same over heads laid out as [n / h, t, h, d] (and k, v, o alike): head i is batch i / h,
/// head i % h. lse [n, t] (may be null) gets each row's log-sum-exp of the scores, for the backward.
void attention_forward(const float* q, const float* k, const float* v, float* o, float* lse, const AttentionArgs& a);

/// dq, dk, dv from d_o (each in its tensor's layout), given the forward's inputs, its output o and lse.
void attention_backward(const float* q, const float* k, const float* v, const float* o, const float* lse,
                        const float* d_o, float* dq, float* dk, float* dv, const AttentionArgs& a);

}  // namespace keras::kernels
