#include "keras/ops/decompositions.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "keras/ops/matrix_batch.hpp"

namespace keras::ops {
namespace {

using Matrix = std::vector<double>;  // row-major

// Householder QR of an m x n matrix: q (m x m) and r (m x n).
void householder_qr(const Matrix& a, std::int64_t m, std::int64_t n, Matrix& q, Matrix& r) {
  r = a;
  q.assign(static_cast<std::size_t>(m * m), 0.0);
  for (std::int64_t i = 0; i < m; ++i) q[i * m + i] = 1.0;
  std::vector<double> v(static_cast<std::size_t>(m));
  for (std::int64_t j = 0; j < std::min(m - 1, n); ++j) {
    double norm = 0;
    for (std::int64_t i = j; i < m; ++i) norm += r[i * n + j] * r[i * n + j];
    norm = std::sqrt(norm);
    if (norm == 0.0) continue;
    const double alpha = r[j * n + j] > 0 ? -norm : norm;
    for (std::int64_t i = j; i < m; ++i) v[i] = r[i * n + j];
    v[j] -= alpha;
    double vv = 0;
    for (std::int64_t i = j; i < m; ++i) vv += v[i] * v[i];
    if (vv == 0.0) continue;
    for (std::int64_t c = 0; c < n; ++c) {
      double d = 0;
      for (std::int64_t i = j; i < m; ++i) d += v[i] * r[i * n + c];
      d = 2 * d / vv;
      for (std::int64_t i = j; i < m; ++i) r[i * n + c] -= d * v[i];
    }
    for (std::int64_t row = 0; row < m; ++row) {
      double d = 0;
      for (std::int64_t i = j; i < m; ++i) d += q[row * m + i] * v[i];
      d = 2 * d / vv;
      for (std::int64_t i = j; i < m; ++i) q[row * m + i] -= d * v[i];
    }
    for (std::int64_t i = j + 1; i < m; ++i) r[i * n + j] = 0.0;
  }
}

// A Jacobi rotation of columns p and q of the rows x cols matrix m: (p, q) <- (c p - s q, s p + c q).
void rotate_columns(Matrix& m, std::int64_t rows, std::int64_t cols, std::int64_t p, std::int64_t q, double c, double s) {
  for (std::int64_t k = 0; k < rows; ++k) {
    const double mp = m[k * cols + p], mq = m[k * cols + q];
    m[k * cols + p] = c * mp - s * mq;
    m[k * cols + q] = s * mp + c * mq;
  }
}

// Cyclic Jacobi on a symmetric n x n matrix: eigenvalues w and eigenvectors (columns of v).
void jacobi_eigh(Matrix a, std::int64_t n, std::vector<double>& w, Matrix& v) {
  v.assign(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i) v[i * n + i] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        total += a[i * n + j] * a[i * n + j];
        if (i != j) off += a[i * n + j] * a[i * n + j];
      }
    if (off <= 1e-30 * total || off == 0.0) break;
    for (std::int64_t p = 0; p < n; ++p)
      for (std::int64_t q = p + 1; q < n; ++q) {
        const double apq = a[p * n + q];
        if (apq == 0.0) continue;
        const double theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        rotate_columns(a, n, n, p, q, c, s);
        for (std::int64_t k = 0; k < n; ++k) {  // rows p, q
          const double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        rotate_columns(v, n, n, p, q, c, s);
      }
  }
  w.resize(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) w[i] = a[i * n + i];
}

// Orthonormal columns: completes the first `k` columns of u (m x m) with vectors orthogonal to them.
void complete_basis(Matrix& u, std::int64_t m, std::int64_t k) {
  std::int64_t next = k;
  for (std::int64_t e = 0; e < m && next < m; ++e) {
    std::vector<double> c(static_cast<std::size_t>(m), 0.0);
    c[e] = 1.0;
    for (int pass = 0; pass < 2; ++pass)
      for (std::int64_t j = 0; j < next; ++j) {
        double d = 0;
        for (std::int64_t i = 0; i < m; ++i) d += u[i * m + j] * c[i];
        for (std::int64_t i = 0; i < m; ++i) c[i] -= d * u[i * m + j];
      }
    double norm = 0;
    for (double x : c) norm += x * x;
    norm = std::sqrt(norm);
    if (norm < 1e-8) continue;
    for (std::int64_t i = 0; i < m; ++i) u[i * m + next] = c[i] / norm;
    ++next;
  }
}

}  // namespace

std::pair<Tensor, Tensor> qr(const Tensor& x0, const std::string& mode) {
  if (mode != "reduced" && mode != "complete")
    throw ValueError("qr: mode must be \"reduced\" or \"complete\", got \"" + mode + "\"");
  const Tensor x = detail::matrix_input(x0, "qr", false);
  const std::int64_t m = x.dim(-2), n = x.dim(-1), k = mode == "reduced" ? std::min(m, n) : m;
  Tensor q = Tensor::empty(detail::batch_shape_with(x, {m, k}), x.dtype()),
         r = Tensor::empty(detail::batch_shape_with(x, {k, n}), x.dtype());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    Matrix qf, rf;
    householder_qr(detail::read_matrix(x, b), m, n, qf, rf);
    Matrix qk(static_cast<std::size_t>(m * k)), rk(static_cast<std::size_t>(k * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < k; ++j) qk[i * k + j] = qf[i * m + j];
    for (std::int64_t i = 0; i < k; ++i)
      for (std::int64_t j = 0; j < n; ++j) rk[i * n + j] = rf[i * n + j];
    detail::write_matrix(q, b, qk);
    detail::write_matrix(r, b, rk);
  }
  return {q, r};
}

std::pair<Tensor, Tensor> eigh(const Tensor& x0) {
  const Tensor x = detail::matrix_input(x0, "eigh", true);
  const std::int64_t n = x.dim(-1);
  Tensor w = Tensor::empty(Shape(x.shape().begin(), x.shape().end() - 1), x.dtype()), v = Tensor::empty(x.shape(), x.dtype());
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    Matrix a = detail::read_matrix(x, b);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j) a[i * n + j] = a[j * n + i];  // the lower triangle
    std::vector<double> values;
    Matrix vectors;
    jacobi_eigh(a, n, values, vectors);
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto i, auto j) { return values[i] < values[j]; });
    Matrix sorted(static_cast<std::size_t>(n * n));
    for (std::int64_t j = 0; j < n; ++j) {
      detail::write_value(w, b * n + j, values[order[j]]);
      for (std::int64_t i = 0; i < n; ++i) sorted[i * n + j] = vectors[i * n + order[j]];
    }
    detail::write_matrix(v, b, sorted);
  }
  return {w, v};
}

SvdResult svd(const Tensor& x0, bool full_matrices, bool compute_uv) {
  const Tensor x = detail::matrix_input(x0, "svd", false);
  const std::int64_t m = x.dim(-2), n = x.dim(-1), k = std::min(m, n);
  SvdResult res;
  Shape s_shape(x.shape().begin(), x.shape().end() - 2);
  s_shape.push_back(k);
  res.s = Tensor::empty(s_shape, x.dtype());
  const std::int64_t um = full_matrices ? m : k, vn = full_matrices ? n : k;
  if (compute_uv) {
    res.u = Tensor::empty(detail::batch_shape_with(x, {m, um}), x.dtype());
    res.vh = Tensor::empty(detail::batch_shape_with(x, {vn, n}), x.dtype());
  }
  for (std::int64_t b = 0; b < detail::batch_count(x); ++b) {
    Matrix a = detail::read_matrix(x, b);
    // Work on the tall orientation (rows >= cols): x^T = V S U^T when m < n.
    const bool wide = m < n;
    const std::int64_t rows = wide ? n : m, cols = wide ? m : n;
    Matrix w(static_cast<std::size_t>(rows * cols));
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) w[i * cols + j] = wide ? a[j * n + i] : a[i * n + j];
    Matrix v(static_cast<std::size_t>(cols * cols), 0.0);
    for (std::int64_t i = 0; i < cols; ++i) v[i * cols + i] = 1.0;
    for (int sweep = 0; sweep < 100; ++sweep) {  // one-sided Jacobi: rotate column pairs until orthogonal
      bool rotated = false;
      for (std::int64_t p = 0; p < cols; ++p)
        for (std::int64_t q = p + 1; q < cols; ++q) {
          double alpha = 0, beta = 0, gamma = 0;
          for (std::int64_t i = 0; i < rows; ++i) {
            alpha += w[i * cols + p] * w[i * cols + p];
            beta += w[i * cols + q] * w[i * cols + q];
            gamma += w[i * cols + p] * w[i * cols + q];
          }
          if (std::abs(gamma) <= 1e-15 * std::sqrt(alpha * beta) || gamma == 0.0) continue;
          rotated = true;
          const double zeta = (beta - alpha) / (2 * gamma);
          const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
          const double c = 1 / std::sqrt(1 + t * t), s = c * t;
          rotate_columns(w, rows, cols, p, q, c, s);
          rotate_columns(v, cols, cols, p, q, c, s);
        }
      if (!rotated) break;
    }
    std::vector<double> sigma(static_cast<std::size_t>(cols));
    for (std::int64_t j = 0; j < cols; ++j) {
      double s = 0;
      for (std::int64_t i = 0; i < rows; ++i) s += w[i * cols + j] * w[i * cols + j];
      sigma[j] = std::sqrt(s);
    }
    std::vector<std::int64_t> order(static_cast<std::size_t>(cols));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto i, auto j) { return sigma[i] > sigma[j]; });
    for (std::int64_t j = 0; j < k; ++j) detail::write_value(res.s, b * k + j, sigma[order[j]]);
    if (!compute_uv) continue;
    // Left vectors of the tall matrix (rows x rows, completed), right vectors (cols x cols).
    Matrix left(static_cast<std::size_t>(rows * rows), 0.0), right(static_cast<std::size_t>(cols * cols));
    std::int64_t filled = 0;
    for (std::int64_t j = 0; j < cols; ++j) {
      const double s = sigma[order[j]];
      if (s <= 1e-12 * std::max(sigma[order[0]], 1e-300)) break;
      for (std::int64_t i = 0; i < rows; ++i) left[i * rows + j] = w[i * cols + order[j]] / s;
      filled = j + 1;
    }
    complete_basis(left, rows, filled);
    for (std::int64_t i = 0; i < cols; ++i)
      for (std::int64_t j = 0; j < cols; ++j) right[i * cols + j] = v[i * cols + order[j]];
    // x = left S right^T (tall) or x = right S left^T (wide): u and vh from them.
    const Matrix& uu = wide ? right : left;
    const Matrix& vv = wide ? left : right;
    const std::int64_t ud = wide ? cols : rows, vd = wide ? rows : cols;  // their sizes (m and n)
    Matrix u_out(static_cast<std::size_t>(m * um)), vh_out(static_cast<std::size_t>(vn * n));
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < um; ++j) u_out[i * um + j] = uu[i * ud + j];
    for (std::int64_t i = 0; i < vn; ++i)
      for (std::int64_t j = 0; j < n; ++j) vh_out[i * n + j] = vv[j * vd + i];
    detail::write_matrix(res.u, b, u_out);
    detail::write_matrix(res.vh, b, vh_out);
  }
  return res;
}

}  // namespace keras::ops
