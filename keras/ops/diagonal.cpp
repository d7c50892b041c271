#include "keras/ops/diagonal.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/ops/creation.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/flat_gather.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {

Tensor diagonal(const Tensor& x, std::int64_t offset, int axis1, int axis2) {
  if (!x.defined() || x.ndim() < 2)
    throw ValueError("diagonal needs a tensor with at least two axes, got " + (x.defined() ? shape_str(x.shape()) : "none"));
  const int a1 = detail::normalize_axis(axis1, x.ndim(), "diagonal"), a2 = detail::normalize_axis(axis2, x.ndim(), "diagonal");
  if (a1 == a2) throw ValueError(fmt::format("diagonal: axis1 and axis2 are both axis {}", a1));
  const std::int64_t r0 = offset >= 0 ? 0 : -offset, c0 = offset >= 0 ? offset : 0;
  const std::int64_t len = std::max<std::int64_t>(0, std::min(x.dim(a1) - r0, x.dim(a2) - c0));
  Shape shape;
  std::vector<int> rest;
  for (int d = 0; d < x.ndim(); ++d)
    if (d != a1 && d != a2) {
      shape.push_back(x.dim(d));
      rest.push_back(d);
    }
  shape.push_back(len);
  const Shape st = detail::strides_of(x.shape());
  auto flat = detail::index_map(shape, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = (pos.back() + r0) * st[static_cast<std::size_t>(a1)] + (pos.back() + c0) * st[static_cast<std::size_t>(a2)];
    for (std::size_t i = 0; i < rest.size(); ++i) o += pos[i] * st[static_cast<std::size_t>(rest[i])];
    return o;
  });
  return detail::gather_flat(x, flat, shape);
}

Tensor diag(const Tensor& x, std::int64_t k) {
  if (!x.defined() || (x.ndim() != 1 && x.ndim() != 2))
    throw ValueError("diag needs a vector or a matrix, got " + (x.defined() ? shape_str(x.shape()) : "none"));
  if (x.ndim() == 2) return diagonal(x, k, 0, 1);
  const std::int64_t n = x.dim(0) + (k < 0 ? -k : k);
  auto flat = std::make_shared<std::vector<std::int64_t>>();
  for (std::int64_t i = 0; i < x.dim(0); ++i) flat->push_back(k >= 0 ? i * n + i + k : (i - k) * n + i);
  return detail::scatter_add_flat(x, flat, {n, n});
}

Tensor trace(const Tensor& x, std::int64_t offset, int axis1, int axis2) {
  const Tensor d = diagonal(x, offset, axis1, axis2);
  if (detail::is_float(d.dtype())) return sum(d, {-1});
  // Integer traces stay integer, as NumPy's (uint8 widens to int32).
  const DType dt = d.dtype() == DType::uint8 || d.dtype() == DType::bool_ ? DType::int32 : d.dtype();
  const Tensor di = d.astype(dt);
  Shape shape(d.shape().begin(), d.shape().end() - 1);
  Tensor out = Tensor::zeros(shape, dt);
  const std::int64_t len = d.dim(-1);
  detail::visit_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    for (std::int64_t r = 0; r < out.size(); ++r)
      for (std::int64_t i = 0; i < len; ++i) out.data<T>()[r] += di.data<T>()[r * len + i];
  });
  return out;
}

namespace {
Tensor band(const Tensor& x, std::int64_t k, bool lower, const char* op) {
  if (!x.defined() || x.ndim() < 2) throw ValueError(fmt::format("{} needs a tensor with at least two axes", op));
  const Tensor mask = lower ? tri(x.dim(-2), x.dim(-1), k, x.dtype())
                            : subtract(Tensor::ones({x.dim(-2), x.dim(-1)}), tri(x.dim(-2), x.dim(-1), k - 1));
  if (detail::is_float(x.dtype())) return multiply(x, mask);
  return multiply(x, mask).astype(x.dtype());
}
}  // namespace

Tensor tril(const Tensor& x, std::int64_t k) { return band(x, k, true, "tril"); }
Tensor triu(const Tensor& x, std::int64_t k) { return band(x, k, false, "triu"); }

}  // namespace keras::ops
