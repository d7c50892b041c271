#include "keras/utils/normalize.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::utils {
namespace {

// np.linalg.norm's vector norm of order p over n values spaced `stride` apart.
double vector_norm(const float* v, std::int64_t n, std::int64_t stride, double p) {
  double acc = 0;
  if (std::isinf(p)) {
    acc = p > 0 ? 0 : INFINITY;
    for (std::int64_t i = 0; i < n; ++i) {
      const double a = std::abs(static_cast<double>(v[i * stride]));
      acc = p > 0 ? std::max(acc, a) : std::min(acc, a);
    }
    return acc;
  }
  if (p == 0) {
    for (std::int64_t i = 0; i < n; ++i) acc += v[i * stride] != 0.f;
    return acc;
  }
  for (std::int64_t i = 0; i < n; ++i) acc += std::pow(std::abs(static_cast<double>(v[i * stride])), p);
  return std::pow(acc, 1.0 / p);
}

}  // namespace

Tensor normalize(const Tensor& x, int axis, double order) {
  if (!x.defined()) throw ValueError("normalize: x is an undefined tensor");
  if (std::isnan(order)) throw ValueError("normalize: order must be a number, got nan");
  const int rank = x.ndim();
  if (rank == 0) throw ValueError("normalize: x must have at least one axis, got a scalar");
  const int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    throw ValueError(fmt::format("normalize: axis {} is out of range for an array of shape {}", axis, shape_str(x.shape())));
  const Shape& s = x.shape();
  std::int64_t outer = 1, inner = 1;
  for (int i = 0; i < a; ++i) outer *= s[static_cast<std::size_t>(i)];
  for (int i = a + 1; i < rank; ++i) inner *= s[static_cast<std::size_t>(i)];
  const std::int64_t n = s[static_cast<std::size_t>(a)];

  const Tensor in = x.astype(DType::float32);
  Tensor out = Tensor::empty(s, DType::float32);
  const float* src = in.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < inner; ++j) {
      const std::int64_t base = o * n * inner + j;
      double norm = vector_norm(src + base, n, inner, order);
      if (norm == 0) norm = 1;
      for (std::int64_t i = 0; i < n; ++i)
        dst[base + i * inner] = static_cast<float>(static_cast<double>(src[base + i * inner]) / norm);
    }
  return out;
}

}  // namespace keras::utils
