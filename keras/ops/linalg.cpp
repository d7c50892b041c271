#include "keras/ops/linalg.hpp"

#include <cmath>
#include <numeric>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/creation.hpp"
#include "keras/ops/diagonal.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/matrix_batch.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

// LU decomposition with partial pivoting of an n x n matrix, in place; returns false when singular.
// perm[i] is the original row at row i; `sign` the permutation's parity.
bool lu(std::vector<double>& a, std::int64_t n, std::vector<std::int64_t>& perm, int& sign) {
  perm.resize(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  sign = 1;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t p = k;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k])) p = i;
    if (a[p * n + k] == 0.0) return false;
    if (p != k) {
      for (std::int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
      std::swap(perm[k], perm[p]);
      sign = -sign;
    }
    for (std::int64_t i = k + 1; i < n; ++i) {
      const double f = a[i * n + k] /= a[k * n + k];
      for (std::int64_t j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  return true;
}

// Solves (LU) x = P b for the k columns of b (n x k, row-major), in place.
void lu_solve(const std::vector<double>& lu_a, const std::vector<std::int64_t>& perm, std::int64_t n, std::int64_t k,
              std::vector<double>& b) {
  std::vector<double> x(b.size());
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < k; ++c) x[i * k + c] = b[perm[i] * k + c];
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < i; ++j)
      for (std::int64_t c = 0; c < k; ++c) x[i * k + c] -= lu_a[i * n + j] * x[j * k + c];
  for (std::int64_t i = n; i-- > 0;) {
    for (std::int64_t j = i + 1; j < n; ++j)
      for (std::int64_t c = 0; c < k; ++c) x[i * k + c] -= lu_a[i * n + j] * x[j * k + c];
    for (std::int64_t c = 0; c < k; ++c) x[i * k + c] /= lu_a[i * n + i];
  }
  b = std::move(x);
}

[[noreturn]] void singular(const char* op, std::int64_t b, const Tensor& x) {
  throw ValueError(fmt::format("{}: matrix {} of the batch of shape {} is singular", op, b, shape_str(x.shape())));
}

}  // namespace

Tensor matrix_transpose(const Tensor& x) {
  if (!x.defined() || x.ndim() < 2) throw ValueError("matrix_transpose needs a tensor with at least two axes");
  std::vector<int> perm(static_cast<std::size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return permute_axes(x, perm);
}

Tensor inv(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "inv", true);
  const std::int64_t n = x.dim(-1);
  Tensor out = Tensor::empty(x.shape());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    auto a = detail::read_matrix(x, b);
    std::vector<std::int64_t> perm;
    int sign;
    if (!lu(a, n, perm, sign)) singular("inv", b, x);
    std::vector<double> e(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t i = 0; i < n; ++i) e[i * n + i] = 1.0;
    lu_solve(a, perm, n, n, e);
    detail::write_matrix(out, b, e);
  }
  if (autodiff::recording())
    autodiff::record(out, {x}, [out](const Tensor& g, const std::vector<bool>&) {
      // d inv(x) = -inv^T g inv^T
      return std::vector<Tensor>{negative(batch_matmul(batch_matmul(out, g, true, false), out, false, true))};
    });
  return out;
}

Tensor det(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "det", true);
  const std::int64_t n = x.dim(-1);
  Tensor out = Tensor::empty(Shape(x.shape().begin(), x.shape().end() - 2));
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    auto a = detail::read_matrix(x, b);
    std::vector<std::int64_t> perm;
    int sign;
    double d = 0.0;
    if (lu(a, n, perm, sign)) {
      d = sign;
      for (std::int64_t i = 0; i < n; ++i) d *= a[i * n + i];
    }
    out.data<float>()[b] = static_cast<float>(d);
  }
  if (autodiff::recording())
    autodiff::record(out, {x}, [x, out](const Tensor& g, const std::vector<bool>&) {
      // d det(x) = det * inv(x)^T (x must be invertible for the gradient)
      Shape s = out.shape();
      s.push_back(1);
      s.push_back(1);
      const Tensor scale = reshape(multiply(g, out), s);
      return std::vector<Tensor>{multiply(scale, matrix_transpose(inv(x)))};
    });
  return out;
}

Tensor solve(const Tensor& a0, const Tensor& b0) {
  const Tensor a = detail::matrix_input(a0, "solve", true);
  if (!b0.defined()) throw ValueError("solve received an undefined right-hand side");
  const bool vector = b0.ndim() == a.ndim() - 1;
  const Tensor b = vector ? reshape(b0.dtype() == DType::float32 ? b0 : b0.astype(DType::float32),
                                    [&] { Shape s = b0.shape(); s.push_back(1); return s; }())
                          : (b0.dtype() == DType::float32 ? b0 : b0.astype(DType::float32));
  const std::int64_t n = a.dim(-1);
  if (b.ndim() != a.ndim() || b.dim(-2) != n ||
      !std::equal(a.shape().begin(), a.shape().end() - 2, b.shape().begin()))
    throw ValueError(fmt::format("solve: a of shape {} and b of shape {} do not match; b needs shape [..., {}, k] or "
                                 "[..., {}] with a's leading axes", shape_str(a.shape()), shape_str(b0.shape()), n, n));
  const std::int64_t k = b.dim(-1);
  Tensor x = Tensor::empty(b.shape());
  for (std::int64_t i = 0; i < detail::batch_count(a); ++i) {
    auto m = detail::read_matrix(a, i);
    std::vector<std::int64_t> perm;
    int sign;
    if (!lu(m, n, perm, sign)) singular("solve", i, a);
    const float* pb = b.data<float>() + i * n * k;
    std::vector<double> rhs(pb, pb + n * k);
    lu_solve(m, perm, n, k, rhs);
    detail::write_matrix(x, i, rhs);
  }
  if (autodiff::recording())
    autodiff::record(x, {a, b}, [a, x](const Tensor& g, const std::vector<bool>& needs) {
      const Tensor gb = solve(matrix_transpose(a), g);
      std::vector<Tensor> grads(2);
      if (needs[0]) grads[0] = negative(batch_matmul(gb, x, false, true));
      if (needs[1]) grads[1] = gb;
      return grads;
    });
  return vector ? reshape(x, b0.shape()) : x;
}

Tensor cholesky(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "cholesky", true);
  const std::int64_t n = x.dim(-1);
  Tensor out = Tensor::empty(x.shape());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    const auto a = detail::read_matrix(x, b);
    std::vector<double> l(a.size(), 0.0);
    for (std::int64_t j = 0; j < n; ++j) {
      double d = a[j * n + j];
      for (std::int64_t k = 0; k < j; ++k) d -= l[j * n + k] * l[j * n + k];
      if (!(d > 0.0))
        throw ValueError(fmt::format("cholesky: matrix {} of the batch of shape {} is not positive definite", b,
                                     shape_str(x.shape())));
      l[j * n + j] = std::sqrt(d);
      for (std::int64_t i = j + 1; i < n; ++i) {
        double s = a[i * n + j];
        for (std::int64_t k = 0; k < j; ++k) s -= l[i * n + k] * l[j * n + k];
        l[i * n + j] = s / l[j * n + j];
      }
    }
    detail::write_matrix(out, b, l);
  }
  if (autodiff::recording())
    autodiff::record(out, {x}, [out, n](const Tensor& g, const std::vector<bool>&) {
      // grad = sym(L^-T phi(L^T tril(g)) L^-1), phi = the lower triangle with its diagonal halved (as PyTorch).
      const Tensor half_diag = subtract(tri(n), multiply(eye(n), Tensor::scalar(0.5f)));
      const Tensor phi = multiply(batch_matmul(out, tril(g), true, false), half_diag);
      const Tensor l_inv = inv(out);
      const Tensor s = batch_matmul(batch_matmul(l_inv, phi, true, false), l_inv);
      return std::vector<Tensor>{multiply(add(s, matrix_transpose(s)), Tensor::scalar(0.5f))};
    });
  return out;
}

}  // namespace keras::ops
