#pragma once
// Pieces shared by the attention layers: Keras's masked softmax (masked scores pushed down by 1e9),
// the lower-triangular causal mask, and dropout of attention probabilities.
#include "keras/tensor.hpp"

namespace keras::layers::detail {

/// softmax over the last axis of `scores`, where `keep` (float 0/1, broadcastable to scores, or undefined)
/// marks the positions that may be attended: the others get scores - 1e9, as tf.keras 2.x does.
Tensor masked_softmax(const Tensor& scores, const Tensor& keep);
/// [1, tq, tv] of 1 where column j <= row i (position i attends to j <= i), else 0.
Tensor causal_mask(std::int64_t tq, std::int64_t tv);
/// Product of two 0/1 masks, either of which may be undefined.
Tensor merge_masks(const Tensor& a, const Tensor& b);
/// Inverted dropout of `x` at `rate` (identity when rate is 0 or not training).
Tensor attention_dropout(const Tensor& x, double rate, bool training);

}  // namespace keras::layers::detail
