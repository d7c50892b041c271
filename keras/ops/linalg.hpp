#pragma once
// Linear algebra of keras.ops (linalg.py) on stacks of matrices [..., m, n], computed in double precision
// with plain loops (meant for small matrices). inv, det, solve and cholesky are differentiable, their
// backward passes written with differentiable ops (inv, solve, batch_matmul, tril), so they differentiate
// again wherever batch_matmul does. qr, svd and eigh are not differentiable (see decompositions.hpp).
#include "keras/tensor.hpp"

namespace keras::ops {

/// The inverse of each square matrix; a singular matrix is an error naming its index in the batch.
Tensor inv(const Tensor& x);
/// The determinant of each square matrix (shape [...]).
Tensor det(const Tensor& x);
/// x with a @ x = b for each square a; b is [..., n, k] (or [..., n], a vector per matrix, as NumPy).
Tensor solve(const Tensor& a, const Tensor& b);
/// The lower-triangular L with L @ L^T = x for each symmetric positive-definite x (only x's lower triangle is
/// read); a matrix that is not positive definite is an error. Its gradient is symmetrized, as PyTorch's.
Tensor cholesky(const Tensor& x);
/// The last two axes swapped (differentiable).
Tensor matrix_transpose(const Tensor& x);

}  // namespace keras::ops
