#include "keras/ops/linalg.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/creation.hpp"
#include "keras/ops/diagonal.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/matrix_batch.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

// LU decomposition with partial pivoting of an n x n matrix, in place; returns false when singular.
// perm[i] is the original row at row i; `sign` the permutation's parity.
// `pivots`, when given, gets LAPACK's getrf pivots: row k was swapped with row pivots[k] at step k.
bool lu(std::vector<double>& a, std::int64_t n, std::vector<std::int64_t>& perm, int& sign,
        std::vector<std::int64_t>* pivots = nullptr) {
  perm.resize(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  sign = 1;
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t p = k;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k])) p = i;
    if (pivots) pivots->push_back(p);
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
  Tensor out = Tensor::empty(x.shape(), x.dtype());
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
  Tensor out = Tensor::empty(Shape(x.shape().begin(), x.shape().end() - 2), x.dtype());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    auto a = detail::read_matrix(x, b);
    std::vector<std::int64_t> perm;
    int sign;
    double d = 0.0;
    if (lu(a, n, perm, sign)) {
      d = sign;
      for (std::int64_t i = 0; i < n; ++i) d *= a[i * n + i];
    }
    detail::write_value(out, b, d);
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
  const DType dtype = b0.dtype() == DType::float64 ? DType::float64 : a.dtype();
  const Tensor a_cast = a.dtype() == dtype ? a : a.astype(dtype);
  const Tensor b_cast = b0.dtype() == dtype ? b0 : b0.astype(dtype);
  const Tensor b = vector ? reshape(b_cast, [&] { Shape s = b0.shape(); s.push_back(1); return s; }()) : b_cast;
  const std::int64_t n = a.dim(-1);
  if (b.ndim() != a.ndim() || b.dim(-2) != n ||
      !std::equal(a.shape().begin(), a.shape().end() - 2, b.shape().begin()))
    throw ValueError(fmt::format("solve: a of shape {} and b of shape {} do not match; b needs shape [..., {}, k] or "
                                 "[..., {}] with a's leading axes", shape_str(a.shape()), shape_str(b0.shape()), n, n));
  const std::int64_t k = b.dim(-1);
  Tensor x = Tensor::empty(b.shape(), dtype);
  for (std::int64_t i = 0; i < detail::batch_count(a); ++i) {
    auto m = detail::read_matrix(a_cast, i);
    std::vector<std::int64_t> perm;
    int sign;
    if (!lu(m, n, perm, sign)) singular("solve", i, a);
    std::vector<double> rhs = k ? detail::read_matrix(b, i) : std::vector<double>();
    lu_solve(m, perm, n, k, rhs);
    detail::write_matrix(x, i, rhs);
  }
  if (autodiff::recording())
    autodiff::record(x, {a_cast, b}, [a = a_cast, x](const Tensor& g, const std::vector<bool>& needs) {
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
  Tensor out = Tensor::empty(x.shape(), x.dtype());
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

std::pair<Tensor, Tensor> slogdet(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "slogdet", true);
  const std::int64_t n = x.dim(-1);
  const Shape batch(x.shape().begin(), x.shape().end() - 2);
  Tensor sign_out = Tensor::empty(batch, x.dtype()), log_out = Tensor::empty(batch, x.dtype());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    auto a = detail::read_matrix(x, b);
    std::vector<std::int64_t> perm;
    int sign;
    double s = 0.0, log_abs = -std::numeric_limits<double>::infinity();
    if (lu(a, n, perm, sign)) {
      s = sign;
      log_abs = 0.0;
      for (std::int64_t i = 0; i < n; ++i) {
        const double d = a[i * n + i];
        if (d < 0) s = -s;
        log_abs += std::log(std::abs(d));
      }
    }
    detail::write_value(sign_out, b, s);
    detail::write_value(log_out, b, log_abs);
  }
  if (autodiff::recording())
    autodiff::record(log_out, {x}, [x, batch](const Tensor& g, const std::vector<bool>&) {
      // d log|det(x)| = inv(x)^T (x must be invertible for the gradient)
      Shape s = batch;
      s.push_back(1);
      s.push_back(1);
      return std::vector<Tensor>{multiply(reshape(g, s), matrix_transpose(inv(x)))};
    }, {.name = "slogdet", .differentiable_backward = true});
  return {sign_out, log_out};
}

std::pair<Tensor, Tensor> lu_factor(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "lu_factor", true);
  const std::int64_t n = x.dim(-1), batches = detail::batch_count(x);
  Tensor lu_out = Tensor::empty(x.shape(), x.dtype());
  Tensor pivots = Tensor::empty(Shape(x.shape().begin(), x.shape().end() - 1), DType::int32);
  // The inverse row permutation of each matrix (x = P^T L U): row perm[i] of x is row i of L U.
  auto inverse_perm = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(batches * n));
  for (std::int64_t b = 0; b < batches; ++b) {
    auto a = detail::read_matrix(x, b);
    std::vector<std::int64_t> perm, piv;
    int sign;
    if (!lu(a, n, perm, sign, &piv)) singular("lu_factor", b, x);
    detail::write_matrix(lu_out, b, a);
    for (std::int64_t i = 0; i < n; ++i) {
      pivots.data<std::int32_t>()[b * n + i] = static_cast<std::int32_t>(piv[static_cast<std::size_t>(i)]);
      (*inverse_perm)[static_cast<std::size_t>(b * n + perm[static_cast<std::size_t>(i)])] = i;
    }
  }
  if (autodiff::recording())
    autodiff::record(lu_out, {x}, [lu_out, inverse_perm, n](const Tensor& g, const std::vector<bool>&) {
      // P x = L U: x_bar = P^T L^-T (tril(L^T tril(g, -1), -1) + triu(triu(g) U^T)) U^-T (PyTorch's lu backward).
      const Tensor l = add(tril(lu_out, -1), eye(n)), u = triu(lu_out);
      const Tensor x_bar_perm =
          add(tril(batch_matmul(l, tril(g, -1), true, false), -1), triu(batch_matmul(triu(g), u, false, true)));
      const Tensor inner = batch_matmul(batch_matmul(inv(l), x_bar_perm, true, false), inv(u), false, true);
      // Row j of P^T y is row inverse_perm[j] of y.
      Tensor rows = Tensor::empty(inner.shape(), DType::int64);
      const std::int64_t total = inner.size();
      for (std::int64_t e = 0; e < total; ++e) {
        const std::int64_t b = e / (n * n), j = (e / n) % n;
        rows.data<std::int64_t>()[e] = (*inverse_perm)[static_cast<std::size_t>(b * n + j)];
      }
      return std::vector<Tensor>{take_along_axis(inner, rows, -2)};
    }, {.name = "lu_factor", .differentiable_backward = true});
  return {lu_out, pivots};
}

}  // namespace keras::ops
