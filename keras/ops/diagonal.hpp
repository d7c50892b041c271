#pragma once
// Diagonals of keras.ops (numpy.py): diag, diagonal, trace, tril, triu. Any dtype; differentiable (to any
// order) for float inputs.
#include "keras/tensor.hpp"

namespace keras::ops {

/// For a vector: the square matrix with x on its k-th diagonal. For a matrix: its k-th diagonal (a vector).
Tensor diag(const Tensor& x, std::int64_t k = 0);
/// The diagonal (offset above the main one when positive) of the planes of axes axis1 and axis2; those axes are
/// removed and the diagonal becomes the last axis.
Tensor diagonal(const Tensor& x, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// The sum of diagonal(x, offset, axis1, axis2) over its last axis.
Tensor trace(const Tensor& x, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// x with the elements above the k-th diagonal of its last two axes set to 0.
Tensor tril(const Tensor& x, std::int64_t k = 0);
/// x with the elements below the k-th diagonal of its last two axes set to 0.
Tensor triu(const Tensor& x, std::int64_t k = 0);

}  // namespace keras::ops
