#include "keras/ops/stacking.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/ops/flat_gather.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

// The piece [begin, end) of x along axis a.
Tensor piece(const Tensor& x, int a, std::int64_t begin, std::int64_t end) {
  Shape shape = x.shape();
  shape[a] = end - begin;
  const Shape st = detail::strides_of(x.shape());
  auto flat = detail::index_map(shape, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < pos.size(); ++d) o += (pos[d] + (static_cast<int>(d) == a ? begin : 0)) * st[d];
    return o;
  });
  return detail::gather_flat(x, flat, shape);
}

std::vector<Tensor> split_at(const Tensor& x, std::vector<std::int64_t> cuts, int a) {
  std::vector<Tensor> out;
  const auto len = x.dim(a);
  std::int64_t begin = 0;
  cuts.push_back(len);
  for (auto c : cuts) {
    const auto end = std::clamp<std::int64_t>(c < 0 ? c + len : c, 0, len);
    out.push_back(piece(x, a, std::min(begin, end), end));
    begin = std::max(begin, end);
  }
  return out;
}

}  // namespace

Tensor stack(const std::vector<Tensor>& xs0, int axis) {
  if (xs0.empty()) throw ValueError("stack needs at least one tensor");
  std::vector<Tensor> xs = xs0;
  for (const auto& x : xs) {
    if (!x.defined()) throw ValueError("stack received an undefined tensor");
    if (x.shape() != xs[0].shape())
      throw ValueError(fmt::format("stack: all tensors need one shape, got {} and {}", shape_str(xs[0].shape()),
                                   shape_str(x.shape())));
  }
  if (std::any_of(xs.begin(), xs.end(), [&](const Tensor& x) { return x.dtype() != xs[0].dtype(); }))
    for (auto& x : xs) x = cast(x, DType::float32);
  const int rank = xs[0].ndim() + 1;
  const int a = detail::normalize_axis(axis, rank, "stack");
  Shape shape = xs[0].shape();
  shape.insert(shape.begin() + a, static_cast<std::int64_t>(xs.size()));
  const Shape st = detail::strides_of(shape);
  std::vector<detail::FlatIndex> where;
  for (std::size_t k = 0; k < xs.size(); ++k)
    where.push_back(detail::index_map(xs[k].shape(), [&](const std::vector<std::int64_t>& pos) {
      std::int64_t o = static_cast<std::int64_t>(k) * st[a];
      for (std::size_t d = 0; d < pos.size(); ++d) o += pos[d] * st[d < static_cast<std::size_t>(a) ? d : d + 1];
      return o;
    }));
  return detail::assemble_flat(xs, where, shape);
}

std::vector<Tensor> unstack(const Tensor& x, std::optional<std::int64_t> num, int axis) {
  if (!x.defined() || x.ndim() == 0) throw ValueError("unstack needs a tensor with at least one axis");
  const int a = detail::normalize_axis(axis, x.ndim(), "unstack");
  if (num && *num != x.dim(a))
    throw ValueError(fmt::format("unstack: num is {} but axis {} of shape {} has {} entries", *num, a,
                                 shape_str(x.shape()), x.dim(a)));
  Shape shape = x.shape();
  shape.erase(shape.begin() + a);
  std::vector<Tensor> out;
  for (std::int64_t i = 0; i < x.dim(a); ++i) out.push_back(reshape(piece(x, a, i, i + 1), shape));
  return out;
}

std::vector<Tensor> split(const Tensor& x, std::int64_t sections, int axis) {
  if (!x.defined() || x.ndim() == 0) throw ValueError("split needs a tensor with at least one axis");
  const int a = detail::normalize_axis(axis, x.ndim(), "split");
  if (sections <= 0 || x.dim(a) % sections != 0)
    throw ValueError(fmt::format("split: axis {} of shape {} does not split into {} equal sections; pass the split "
                                 "indices instead", a, shape_str(x.shape()), sections));
  std::vector<std::int64_t> cuts;
  for (std::int64_t i = 1; i < sections; ++i) cuts.push_back(i * (x.dim(a) / sections));
  return split_at(x, cuts, a);
}

std::vector<Tensor> split(const Tensor& x, const std::vector<std::int64_t>& indices, int axis) {
  if (!x.defined() || x.ndim() == 0) throw ValueError("split needs a tensor with at least one axis");
  return split_at(x, indices, detail::normalize_axis(axis, x.ndim(), "split"));
}

Tensor squeeze(const Tensor& x, const std::vector<int>& axes) {
  if (!x.defined()) throw ValueError("squeeze received an undefined tensor");
  std::vector<int> drop;
  for (int ax : axes) {
    const int a = detail::normalize_axis(ax, x.ndim(), "squeeze");
    if (x.dim(a) != 1)
      throw ValueError(fmt::format("squeeze: axis {} of shape {} has size {}; only size-1 axes can be squeezed", ax,
                                   shape_str(x.shape()), x.dim(a)));
    drop.push_back(a);
  }
  Shape shape;
  for (int d = 0; d < x.ndim(); ++d) {
    const bool dropped = axes.empty() ? x.dim(d) == 1 : std::find(drop.begin(), drop.end(), d) != drop.end();
    if (!dropped) shape.push_back(x.dim(d));
  }
  return reshape(x, shape);
}

}  // namespace keras::ops
