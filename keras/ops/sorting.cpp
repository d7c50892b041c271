#include "keras/ops/sorting.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "keras/kernels/parallel.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/gather.hpp"

namespace keras::ops {
namespace {

template <class T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

// Orders the `len` elements p[0], p[stride], ... into `order` (ascending, or descending), NaN last, stable.
template <class T>
void order_line(const T* p, std::int64_t len, std::int64_t stride, bool descending, std::int32_t* order) {
  std::iota(order, order + len, 0);
  std::stable_sort(order, order + len, [&](std::int32_t i, std::int32_t j) {
    const T a = p[i * stride], b = p[j * stride];
    if (is_nan(a) || is_nan(b)) return !is_nan(a) && is_nan(b);
    return descending ? a > b : a < b;
  });
}

// argsort along axis a; with `descending`, largest first.
Tensor argsort_axis(const Tensor& x, int a, bool descending) {
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; ++d) outer *= x.dim(d);
  for (int d = a + 1; d < x.ndim(); ++d) inner *= x.dim(d);
  const std::int64_t len = x.dim(a);
  Tensor out = Tensor::empty(x.shape(), DType::int32);
  detail::visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    std::int32_t* po = out.data<std::int32_t>();
    kernels::parallel_rows(outer * inner, len, [&](std::int64_t r) {
      const std::int64_t o = r / inner, i = r % inner;
      std::vector<std::int32_t> order(static_cast<std::size_t>(len));
      order_line(px + o * len * inner + i, len, inner, descending, order.data());
      for (std::int64_t j = 0; j < len; ++j) po[(o * len + j) * inner + i] = order[static_cast<std::size_t>(j)];
    });
  });
  return out;
}

}  // namespace

Tensor argsort(const Tensor& x, int axis) {
  if (!x.defined()) throw ValueError("argsort received an undefined tensor");
  if (x.ndim() == 0) return Tensor::zeros({}, DType::int32);
  const int a = detail::normalize_axis(axis, x.ndim(), "argsort");
  return argsort_axis(x, a, false);
}

Tensor sort(const Tensor& x, int axis) {
  if (!x.defined()) throw ValueError("sort received an undefined tensor");
  if (x.ndim() == 0) return x.clone();
  return take_along_axis(x, argsort(x, axis), axis);
}

std::pair<Tensor, Tensor> top_k(const Tensor& x, std::int64_t k, bool sorted) {
  if (!x.defined() || x.ndim() == 0) throw ValueError("top_k needs a tensor with at least one axis");
  if (k < 0 || k > x.dim(-1))
    throw ValueError(fmt::format("top_k: k = {} but the last axis of shape {} has {} entries", k, shape_str(x.shape()),
                                 x.dim(-1)));
  const Tensor order = argsort_axis(x, x.ndim() - 1, true);
  const std::int64_t len = x.dim(-1), rows = len ? x.size() / len : 0;
  Shape shape = x.shape();
  shape.back() = k;
  Tensor idx = Tensor::empty(shape, DType::int32);
  const std::int32_t* po = order.data<std::int32_t>();
  std::int32_t* pi = idx.data<std::int32_t>();
  for (std::int64_t r = 0; r < rows; ++r) {
    std::copy_n(po + r * len, k, pi + r * k);
    if (!sorted) std::sort(pi + r * k, pi + (r + 1) * k);
  }
  return {take_along_axis(x, idx, -1), idx};
}

}  // namespace keras::ops
