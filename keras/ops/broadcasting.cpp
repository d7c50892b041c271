#include "keras/ops/broadcasting.hpp"

#include <fmt/format.h>

#include "keras/ops/flat_gather.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  Shape out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto da = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const auto db = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ValueError(fmt::format("{}: shapes {} and {} cannot be broadcast together", op, shape_str(a), shape_str(b)));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  if (!x.defined()) throw ValueError("broadcast_to received an undefined tensor");
  const Shape& s = x.shape();
  bool ok = s.size() <= shape.size();
  const std::size_t lead = ok ? shape.size() - s.size() : 0;
  for (std::size_t i = 0; ok && i < s.size(); ++i) ok = s[i] == shape[lead + i] || s[i] == 1;
  if (!ok)
    throw ValueError(fmt::format("broadcast_to: a tensor of shape {} cannot be broadcast to shape {}", shape_str(s),
                                 shape_str(shape)));
  if (s == shape) return reshape(x, shape);
  const Shape st = detail::strides_of(s);
  auto flat = detail::index_map(shape, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t i = 0; i < s.size(); ++i) o += (s[i] == 1 ? 0 : pos[lead + i]) * st[i];
    return o;
  });
  return detail::gather_flat(x, flat, shape);
}

Tensor tile(const Tensor& x, const std::vector<std::int64_t>& reps0) {
  if (!x.defined()) throw ValueError("tile received an undefined tensor");
  for (auto r : reps0)
    if (r < 0) throw ValueError(fmt::format("tile: repetitions must be at least 0, got {}", r));
  const std::size_t rank = std::max(reps0.size(), x.shape().size());
  std::vector<std::int64_t> reps(rank - reps0.size(), 1);
  reps.insert(reps.end(), reps0.begin(), reps0.end());
  Shape s(rank - x.shape().size(), 1);
  s.insert(s.end(), x.shape().begin(), x.shape().end());
  Shape out_shape(rank);
  for (std::size_t i = 0; i < rank; ++i) out_shape[i] = s[i] * reps[i];
  const Shape st = detail::strides_of(s);
  auto flat = detail::index_map(out_shape, [&](const std::vector<std::int64_t>& pos) {
    std::int64_t o = 0;
    for (std::size_t i = 0; i < rank; ++i) o += (pos[i] % s[i]) * st[i];
    return o;
  });
  return detail::gather_flat(x, flat, out_shape);
}

}  // namespace keras::ops
