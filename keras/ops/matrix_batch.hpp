#pragma once
// Helpers of the linear-algebra ops: stacks of matrices ([..., m, n]) read into and written from double
// buffers, one matrix at a time. Internal to the ops.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "keras/tensor.hpp"

namespace keras::ops::detail {

/// x as float32 (float64 stays float64) [..., m, n], checked to have at least two axes (and square ones when
/// `square`).
inline Tensor matrix_input(const Tensor& x, const char* op, bool square) {
  if (!x.defined()) throw ValueError(fmt::format("{} received an undefined tensor", op));
  if (x.ndim() < 2 || (square && x.dim(-1) != x.dim(-2)))
    throw ValueError(fmt::format("{} needs {} matrices (shape [..., {}]), got shape {}", op, square ? "square" : "",
                                 square ? "n, n" : "m, n", shape_str(x.shape())));
  return x.dtype() == DType::float32 || x.dtype() == DType::float64 ? x : x.astype(DType::float32);
}

/// The number of matrices in a [..., m, n] tensor.
inline std::int64_t batch_count(const Tensor& x) {
  const auto per = x.dim(-1) * x.dim(-2);
  return per ? x.size() / per : 0;
}

/// Matrix b of x (row-major m*n doubles).
inline std::vector<double> read_matrix(const Tensor& x, std::int64_t b) {
  const std::int64_t per = x.dim(-1) * x.dim(-2);
  if (x.dtype() == DType::float64) {
    const double* p = x.data<double>() + b * per;
    return std::vector<double>(p, p + per);
  }
  const float* p = x.data<float>() + b * per;
  return std::vector<double>(p, p + per);
}

/// Writes m at matrix b of out (float32 or float64).
inline void write_matrix(Tensor& out, std::int64_t b, const std::vector<double>& m) {
  const auto offset = b * static_cast<std::int64_t>(m.size());
  if (out.dtype() == DType::float64) {
    std::copy(m.begin(), m.end(), out.data<double>() + offset);
    return;
  }
  float* p = out.data<float>() + offset;
  for (std::size_t i = 0; i < m.size(); ++i) p[i] = static_cast<float>(m[i]);
}

/// out.flat[i] = v (float32 or float64).
inline void write_value(Tensor& out, std::int64_t i, double v) {
  if (out.dtype() == DType::float64)
    out.data<double>()[i] = v;
  else
    out.data<float>()[i] = static_cast<float>(v);
}

/// x's shape with the last two axes replaced by `tail`.
inline Shape batch_shape_with(const Tensor& x, const Shape& tail) {
  Shape s(x.shape().begin(), x.shape().end() - 2);
  s.insert(s.end(), tail.begin(), tail.end());
  return s;
}

}  // namespace keras::ops::detail
