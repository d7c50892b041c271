#include "keras/ops/reordering.hpp"

#include "keras/ops/flat_gather.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {

Tensor flip(const Tensor& x, const std::vector<int>& axes) {
  if (!x.defined()) throw ValueError("flip received an undefined tensor");
  std::vector<bool> flipped(static_cast<std::size_t>(x.ndim()), axes.empty());
  for (int ax : axes) flipped[static_cast<std::size_t>(detail::normalize_axis(ax, x.ndim(), "flip"))] = true;
  const Shape& s = x.shape();
  const Shape st = detail::strides_of(s);
  auto flat = detail::index_map(s, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < pos.size(); ++d) o += (flipped[d] ? s[d] - 1 - pos[d] : pos[d]) * st[d];
    return o;
  });
  return detail::gather_flat(x, flat, s);
}

Tensor roll(const Tensor& x0, std::int64_t shift, std::optional<int> axis) {
  if (!x0.defined()) throw ValueError("roll received an undefined tensor");
  const Tensor x = axis ? x0 : reshape(x0, {x0.size()});
  if (x.ndim() == 0) return reshape(x0, x0.shape());
  const int a = detail::normalize_axis(axis.value_or(0), x.ndim(), "roll");
  const Shape& s = x.shape();
  const Shape st = detail::strides_of(s);
  const std::int64_t len = s[static_cast<std::size_t>(a)];
  auto flat = detail::index_map(s, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < pos.size(); ++d) {
      std::int64_t p = pos[d];
      if (static_cast<int>(d) == a) p = ((p - shift) % len + len) % len;
      o += p * st[d];
    }
    return o;
  });
  const Tensor out = detail::gather_flat(x, flat, s);
  return axis ? out : reshape(out, x0.shape());
}

}  // namespace keras::ops

namespace keras::ops {

Tensor permute_axes(const Tensor& x, const std::vector<int>& perm) {
  if (!x.defined()) throw ValueError("permute_axes received an undefined tensor");
  if (static_cast<int>(perm.size()) != x.ndim())
    throw ValueError("permute_axes: the permutation needs one entry per axis of shape " + shape_str(x.shape()));
  std::vector<bool> seen(perm.size(), false);
  Shape shape;
  for (int p : perm) {
    const int a = detail::normalize_axis(p, x.ndim(), "permute_axes");
    if (seen[static_cast<std::size_t>(a)]) throw ValueError("permute_axes: axis " + std::to_string(p) + " is repeated");
    seen[static_cast<std::size_t>(a)] = true;
    shape.push_back(x.dim(a));
  }
  const Shape st = detail::strides_of(x.shape());
  auto flat = detail::index_map(shape, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < pos.size(); ++d) o += pos[d] * st[static_cast<std::size_t>(perm[d] < 0 ? perm[d] + x.ndim() : perm[d])];
    return o;
  });
  return detail::gather_flat(x, flat, shape);
}

}  // namespace keras::ops
