#include "keras/initializers/orthogonal.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "keras/config/codec.hpp"
#include "keras/initializers/random.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::initializers {
namespace {

const bool registered = register_class<Initializer, Orthogonal>("Orthogonal", {"orthogonal", "OrthogonalInitializer"});

double dot(const double* a, const double* b, std::int64_t n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (std::int64_t k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

// P -= Q (Q^T P) for the k orthonormal columns Q and the b columns P (each m long, contiguous).
// Work is split by Q's columns, then by row blocks, so each piece of Q is read once per panel.
void project_out(const double* q, std::int64_t k, double* p, std::int64_t b, std::int64_t m, std::vector<double>& r) {
  constexpr std::int64_t kRows = 256;
  kernels::parallel_rows(k, m * b, [&](std::int64_t i) {
    for (std::int64_t c = 0; c < b; ++c) r[i * b + c] = dot(q + i * m, p + c * m, m);
  });
  const std::int64_t blocks = (m + kRows - 1) / kRows;
  kernels::parallel_rows(blocks, kRows * k * b, [&](std::int64_t blk) {
    const std::int64_t lo = blk * kRows, hi = std::min(m, lo + kRows);
    for (std::int64_t i = 0; i < k; ++i)
      for (std::int64_t c = 0; c < b; ++c) {
        const double rc = r[i * b + c];
        const double* qi = q + i * m;
        double* pc = p + c * m;
        for (std::int64_t e = lo; e < hi; ++e) pc[e] -= rc * qi[e];
      }
  });
}

// Orthonormalizes the n columns (each m long, stored contiguously) in place: block classical
// Gram-Schmidt, each projection done twice, which is as accurate as Householder QR on these
// well-conditioned random matrices. Each column keeps a positive component along its original
// direction, so R's diagonal is positive: that is Keras's sign correction of Q.
void orthonormalize_columns(std::vector<double>& q, std::int64_t m, std::int64_t n) {
  constexpr std::int64_t kPanel = 32;
  std::vector<double> r(static_cast<std::size_t>(n * kPanel));
  for (std::int64_t p0 = 0; p0 < n; p0 += kPanel) {
    const std::int64_t b = std::min(kPanel, n - p0);
    double* panel = q.data() + p0 * m;
    if (p0 > 0)
      for (int pass = 0; pass < 2; ++pass) project_out(q.data(), p0, panel, b, m, r);
    for (std::int64_t c = 0; c < b; ++c) {
      double* v = panel + c * m;
      for (int pass = 0; pass < 2; ++pass)
        for (std::int64_t i = 0; i < c; ++i) {
          const double* qi = panel + i * m;
          const double ri = dot(qi, v, m);
          for (std::int64_t e = 0; e < m; ++e) v[e] -= ri * qi[e];
        }
      const double norm = std::sqrt(dot(v, v, m));
      if (!(norm > 0)) throw ValueError("Orthogonal initializer: the random matrix was rank deficient; retry");
      for (std::int64_t e = 0; e < m; ++e) v[e] /= norm;
    }
  }
}

}  // namespace

Orthogonal::Orthogonal(OrthogonalOptions options) : options_(options) {}

Tensor Orthogonal::operator()(const Shape& shape) const {
  if (shape.size() < 2)
    throw ValueError("Orthogonal initializer: the tensor to initialize must be at least two-dimensional, got shape " +
                     shape_str(shape) + ". Use it for kernels such as Dense's [input_dim, units].");
  std::int64_t rows = 1;
  for (std::size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  const std::int64_t cols = shape.back();
  Tensor out = Tensor::empty(shape);
  if (rows == 0 || cols == 0) return out;
  const std::int64_t m = std::max(rows, cols), n = std::min(rows, cols);
  // A standard normal [m, n] matrix, read column by column (column j lives at q[j * m, (j + 1) * m)).
  const Tensor a = random_normal({m, n}, 0.0, 1.0, options_.seed);
  const float* pa = a.data<float>();
  std::vector<double> q(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) q[j * m + i] = pa[i * n + j];
  orthonormalize_columns(q, m, n);
  // Tall: out = Q (rows = m). Wide: out = Q^T (rows = n), so out[i][j] = Q[j][i].
  float* po = out.data<float>();
  const double gain = options_.gain;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      po[i * cols + j] = static_cast<float>(gain * (rows >= cols ? q[j * m + i] : q[i * m + j]));
  return out;
}

json Orthogonal::get_config() const { return {{"gain", options_.gain}, {"seed", seed_to_config(options_.seed)}}; }

std::shared_ptr<Initializer> Orthogonal::from_config(const json& c) {
  if (c.contains("gain") && !c["gain"].is_number())
    throw ValueError("Orthogonal config: 'gain' must be a number, got " + c["gain"].dump());
  return std::make_shared<Orthogonal>(
      OrthogonalOptions{.gain = config::value_or(c, "gain", 1.0), .seed = seed_from_config(c)});
}

}  // namespace keras::initializers
