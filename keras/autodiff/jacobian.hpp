#pragma once
// Jacobians from a GradientTape (tf.GradientTape.jacobian and batch_jacobian): one backward pass per
// element of the target (per element of one sample for batch_jacobian), each seeded with a one-hot
// output gradient.
#include "keras/autodiff/gradient_tape.hpp"

namespace keras::autodiff {

/// d target[i...] / d source[j...], shaped target.shape + source.shape; zeros where the target does not
/// depend on the source. The tape must be persistent (it is walked once per element of target).
///
///     GradientTape tape(true);
///     tape.watch(x);
///     Tensor y = ops::tanh(ops::matmul(x, w));
///     Tensor j = autodiff::jacobian(tape, y, x);   // shape y.shape + x.shape
Tensor jacobian(GradientTape& tape, const Tensor& target, const Tensor& source);

/// For each sample b, d target[b, i...] / d source[b, j...], shaped (B,) + target.shape[1:] + source.shape[1:]
/// (samples must not interact, as tf.GradientTape.batch_jacobian assumes). The tape must be persistent.
Tensor batch_jacobian(GradientTape& tape, const Tensor& target, const Tensor& source);

}  // namespace keras::autodiff
