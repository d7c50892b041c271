#pragma once
// Linear algebra of keras.ops (linalg.py) on stacks of matrices [..., m, n], computed in double precision
// with plain loops (meant for small matrices). inv, det, slogdet, solve, cholesky and lu_factor are differentiable, their
// backward passes written with differentiable ops (inv, solve, batch_matmul, tril), so they differentiate
// again wherever batch_matmul does. qr, svd and eigh are not differentiable (see decompositions.hpp).
#include <utility>

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
/// keras.ops.slogdet: the sign (-1, 0 or 1) and the natural log of the absolute value of each square matrix's
/// determinant (shapes [...]), without the overflow of log(det). logabsdet differentiates (inv(x)^T, as
/// PyTorch); the sign has no gradient. A singular matrix gives sign 0 and logabsdet -inf.
std::pair<Tensor, Tensor> slogdet(const Tensor& x);
/// keras.ops.lu_factor: P x = L U with partial pivoting, as LAPACK's getrf (JAX's and PyTorch's backends):
/// `lu` [..., n, n] holds U on and above the diagonal and L's multipliers below it (L's unit diagonal is
/// implied); `pivots` [..., n] (int32, 0-based) says that row i was swapped with row pivots[i] at step i.
/// (Keras's TensorFlow backend returns a permutation instead.) lu differentiates for invertible x (PyTorch's
/// formula: x_bar = P^T L^-T (tril(L^T tril(g, -1), -1) + triu(triu(g) U^T)) U^-T). A singular matrix is
/// an error naming its index in the batch.
std::pair<Tensor, Tensor> lu_factor(const Tensor& x);

}  // namespace keras::ops
