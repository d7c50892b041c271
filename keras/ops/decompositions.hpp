#pragma once
// Matrix decompositions of keras.ops (linalg.py) on stacks of matrices [..., m, n], in double precision with
// plain loops (Householder QR, one-sided Jacobi SVD, cyclic Jacobi eigh: meant for small matrices). Not
// differentiable: a tape records nothing through them.
#include <string>
#include <utility>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Q and R with x = Q @ R, Q orthonormal, R upper triangular (LAPACK's signs: R's diagonal may be negative).
/// mode "reduced": Q [..., m, k], R [..., k, n] with k = min(m, n); "complete": Q [..., m, m], R [..., m, n].
std::pair<Tensor, Tensor> qr(const Tensor& x, const std::string& mode = "reduced");

struct SvdResult {
  Tensor u, s, vh;  // x = u @ diag(s) @ vh; s descending; u and vh undefined without compute_uv
};
/// The singular value decomposition. full_matrices: u [..., m, m] and vh [..., n, n]; otherwise
/// [..., m, k] and [..., k, n] with k = min(m, n). Singular vectors are defined up to their signs.
SvdResult svd(const Tensor& x, bool full_matrices = true, bool compute_uv = true);

/// Eigenvalues (ascending, [..., n]) and eigenvectors (the columns of [..., n, n]) of symmetric matrices
/// (the lower triangle is read, as NumPy's eigh with UPLO="L"). Eigenvectors are defined up to their signs.
std::pair<Tensor, Tensor> eigh(const Tensor& x);

}  // namespace keras::ops
