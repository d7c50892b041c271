#include "keras/ops/indexing.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "keras/ops/manipulation.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

struct Range {
  std::int64_t start, step, count;
};

// Python's slice.indices(n) followed by len(range(...)).
Range resolve(const Slice& s, std::int64_t n) {
  if (s.step.value_or(1) == 0) throw ValueError("getitem: a slice step cannot be zero");
  // A step longer than the axis takes at most one element, as its clamped value does (and no arithmetic overflows).
  const std::int64_t step = std::clamp<std::int64_t>(s.step.value_or(1), -(n + 1), n + 1);
  const std::int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  auto bound = [&](std::optional<std::int64_t> v, std::int64_t fallback) {
    if (!v) return fallback;
    std::int64_t x = *v;
    return x < 0 ? std::max(x + n, lower) : std::min(x, upper);
  };
  const std::int64_t start = bound(s.start, step > 0 ? lower : upper);
  const std::int64_t stop = bound(s.stop, step > 0 ? upper : lower);
  std::int64_t count = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
  return {start, step, std::max<std::int64_t>(count, 0)};
}

// Elements `idx` of x along `axis`, copied (take_rows on the axis moved to the front).
Tensor take_along(const Tensor& x, int axis, const std::vector<std::int64_t>& idx) {
  if (axis == 0) return take_rows(x, idx);
  std::vector<int> perm(x.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  perm.erase(perm.begin() + axis);
  perm.insert(perm.begin(), axis);
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  return transpose(take_rows(transpose(x, perm), idx), inverse);
}

}  // namespace

Tensor getitem(const Tensor& x, const std::vector<Index>& key) {
  const int rank = x.ndim();
  int consuming = 0, ellipses = 0;
  for (const auto& i : key) {
    if (std::holds_alternative<std::int64_t>(i) || std::holds_alternative<Slice>(i)) ++consuming;
    if (std::holds_alternative<Ellipsis>(i)) ++ellipses;
  }
  if (ellipses > 1) throw ValueError("getitem: an index can only have a single ellipsis ('...')");
  if (consuming > rank)
    throw ValueError(fmt::format("getitem: too many indices for a tensor of shape {}: {} were indexed",
                                 shape_str(x.shape()), consuming));
  // One entry per axis of x (integers and slices), the Ellipsis expanded and trailing axes filled in.
  std::vector<Index> full;
  for (const auto& i : key) {
    if (std::holds_alternative<Ellipsis>(i))
      full.insert(full.end(), static_cast<std::size_t>(rank - consuming), Slice{});
    else
      full.push_back(i);
  }
  if (ellipses == 0) full.insert(full.end(), static_cast<std::size_t>(rank - consuming), Slice{});

  Shape begin(rank, 0), size = x.shape(), out_shape;
  std::vector<std::pair<int, Range>> strided;
  bool whole = true;
  int axis = 0;
  for (const auto& i : full) {
    if (std::holds_alternative<NewAxis>(i)) {
      out_shape.push_back(1);
      continue;
    }
    const std::int64_t n = x.dim(axis);
    if (const auto* k = std::get_if<std::int64_t>(&i)) {
      const std::int64_t at = *k < 0 ? *k + n : *k;
      if (at < 0 || at >= n)
        throw ValueError(fmt::format("getitem: index {} is out of bounds for axis {} with size {} (tensor shape {})",
                                     *k, axis, n, shape_str(x.shape())));
      begin[axis] = at;
      size[axis] = 1;
      whole = false;
    } else {
      const Range r = resolve(std::get<Slice>(i), n);
      out_shape.push_back(r.count);
      if (r.step == 1) {
        begin[axis] = r.start;
        size[axis] = r.count;
        whole = whole && r.start == 0 && r.count == n;
      } else {
        strided.emplace_back(axis, r);
      }
    }
    ++axis;
  }
  Tensor y = whole ? x : slice(x, begin, size);
  for (const auto& [a, r] : strided) {
    std::vector<std::int64_t> idx(static_cast<std::size_t>(r.count));
    for (std::int64_t k = 0; k < r.count; ++k) idx[static_cast<std::size_t>(k)] = r.start + k * r.step;
    y = take_along(y, a, idx);
  }
  return y.shape() == out_shape ? y : reshape(y, out_shape);
}

}  // namespace keras::ops
