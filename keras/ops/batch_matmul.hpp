#pragma once
// Differentiable batched matrix product (tf.linalg.matmul on stacks of matrices) on oneDNN.
#include "keras/tensor.hpp"

namespace keras::ops {

/// a [..., m, k] @ b [..., k, n] → [..., m, n]; the leading axes of a and b must be equal (rank ≥ 2).
/// `transpose_a` / `transpose_b` take each matrix of a / b transposed ([..., k, m] / [..., n, k]).
Tensor batch_matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false);

}  // namespace keras::ops
