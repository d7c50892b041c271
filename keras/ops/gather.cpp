#include "keras/ops/gather.hpp"

#include <fmt/format.h>

#include "keras/ops/flat_gather.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace detail {

int normalize_axis(int axis, int rank, const char* op) {
  if (axis < -rank || axis >= rank)
    throw ValueError(fmt::format("{}: axis {} is out of bounds for a tensor of rank {}", op, axis, rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<std::int64_t> axis_indices(const Tensor& indices, std::int64_t dim, const char* op) {
  if (!indices.defined()) throw ValueError(fmt::format("{}: the indices are undefined", op));
  std::vector<std::int64_t> v = indices.astype(DType::int64).to_vector<std::int64_t>();
  for (auto& i : v) {
    if (i < -dim || i >= dim)
      throw ValueError(fmt::format("{}: index {} is out of range for an axis of size {}", op, i, dim));
    if (i < 0) i += dim;
  }
  return v;
}

}  // namespace detail

namespace {
Tensor defined_input(const Tensor& x, const char* op) {
  if (!x.defined()) throw ValueError(fmt::format("{} received an undefined tensor", op));
  return x;
}
}  // namespace

Tensor take(const Tensor& x0, const Tensor& indices, std::optional<int> axis) {
  Tensor x = defined_input(x0, "take");
  if (!axis) {
    x = reshape(x, {x.size()});
    axis = 0;
  }
  if (x.ndim() == 0) throw ValueError("take: x is a scalar; it needs at least one axis");
  const int a = detail::normalize_axis(*axis, x.ndim(), "take");
  const Shape& s = x.shape();
  const auto idx = detail::axis_indices(indices, s[a], "take");
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; ++d) outer *= s[d];
  for (int d = a + 1; d < x.ndim(); ++d) inner *= s[d];
  Shape out_shape(s.begin(), s.begin() + a);
  out_shape.insert(out_shape.end(), indices.shape().begin(), indices.shape().end());
  out_shape.insert(out_shape.end(), s.begin() + a + 1, s.end());
  const auto k = static_cast<std::int64_t>(idx.size());
  auto flat = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(outer * k * inner));
  std::int64_t* f = flat->data();
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < k; ++j)
      for (std::int64_t i = 0; i < inner; ++i) *f++ = (o * s[a] + idx[j]) * inner + i;
  return detail::gather_flat(x, flat, out_shape);
}

Tensor take_along_axis(const Tensor& x0, const Tensor& indices0, std::optional<int> axis) {
  Tensor x = defined_input(x0, "take_along_axis"), indices = defined_input(indices0, "take_along_axis");
  if (!axis) {
    x = reshape(x, {x.size()});
    indices = indices.reshape({indices.size()});
    axis = 0;
  }
  if (x.ndim() != indices.ndim())
    throw ValueError(fmt::format("take_along_axis: x of shape {} and indices of shape {} need the same rank",
                                 shape_str(x.shape()), shape_str(indices.shape())));
  const int rank = x.ndim();
  const int a = detail::normalize_axis(*axis, rank, "take_along_axis");
  Shape out_shape(rank);
  for (int d = 0; d < rank; ++d) {
    const auto dx = x.dim(d), di = indices.dim(d);
    if (d == a) out_shape[d] = di;
    else if (dx == di || dx == 1 || di == 1) out_shape[d] = dx == 1 ? di : dx;
    else
      throw ValueError(fmt::format("take_along_axis: x of shape {} and indices of shape {} do not broadcast "
                                   "outside axis {}", shape_str(x.shape()), shape_str(indices.shape()), a));
  }
  const auto idx = detail::axis_indices(indices, x.dim(a), "take_along_axis");
  const Shape xs = detail::strides_of(x.shape()), is = detail::strides_of(indices.shape());
  const std::int64_t n = shape_size(out_shape);
  auto flat = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(n));
  std::vector<std::int64_t> pos(rank, 0);
  for (std::int64_t e = 0; e < n; ++e) {
    std::int64_t ii = 0, xo = 0;
    for (int d = 0; d < rank; ++d) {
      ii += (indices.dim(d) == 1 ? 0 : pos[d]) * is[d];
      if (d != a) xo += (x.dim(d) == 1 ? 0 : pos[d]) * xs[d];
    }
    (*flat)[e] = xo + idx[ii] * xs[a];
    for (int d = rank; d-- > 0;) {
      if (++pos[d] < out_shape[d]) break;
      pos[d] = 0;
    }
  }
  return detail::gather_flat(x, flat, out_shape);
}

Tensor gather_nd(const Tensor& x0, const Tensor& indices) {
  Tensor x = defined_input(x0, "gather_nd");
  if (!indices.defined() || indices.ndim() == 0)
    throw ValueError("gather_nd: the indices need at least one axis (the last one addresses the axes of x)");
  const int m = static_cast<int>(indices.dim(-1));
  if (m > x.ndim())
    throw ValueError(fmt::format("gather_nd: indices of shape {} address {} axes but x of shape {} has {}",
                                 shape_str(indices.shape()), m, shape_str(x.shape()), x.ndim()));
  const auto raw = indices.astype(DType::int64).to_vector<std::int64_t>();
  const Shape xs = detail::strides_of(x.shape());
  std::int64_t inner = 1;
  for (int d = m; d < x.ndim(); ++d) inner *= x.dim(d);
  const std::int64_t rows = m ? static_cast<std::int64_t>(raw.size()) / m : shape_size(indices.shape());
  auto flat = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(rows * inner));
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t base = 0;
    for (int d = 0; d < m; ++d) {
      std::int64_t i = raw[r * m + d];
      if (i < -x.dim(d) || i >= x.dim(d))
        throw ValueError(fmt::format("gather_nd: index {} is out of range for axis {} of x's shape {}", i, d,
                                     shape_str(x.shape())));
      if (i < 0) i += x.dim(d);
      base += i * xs[d];
    }
    for (std::int64_t i = 0; i < inner; ++i) (*flat)[r * inner + i] = base + i;
  }
  Shape out_shape(indices.shape().begin(), indices.shape().end() - 1);
  out_shape.insert(out_shape.end(), x.shape().begin() + m, x.shape().end());
  return detail::gather_flat(x, flat, out_shape);
}

}  // namespace keras::ops
