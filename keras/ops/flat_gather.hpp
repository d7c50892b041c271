#pragma once
// The two data-movement primitives most index ops are built on: reading elements at flat offsets and
// adding values into flat offsets. Each is the other's adjoint, and each records the other as its
// backward, so the ops built on them (take, take_along_axis, gather_nd, scatter, segment_sum, flip,
// roll, tile, broadcast_to, split, diagonal, sort, top_k) differentiate to any order. Internal to the ops.
#include <cstdint>
#include <memory>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops::detail {

using FlatIndex = std::shared_ptr<const std::vector<std::int64_t>>;

/// out (shaped `shape`) with out.flat[i] = x.flat[index[i]]; any dtype. The offsets must be in range.
Tensor gather_flat(const Tensor& x, FlatIndex index, const Shape& shape);
/// zeros(shape) with v.flat[i] added at index[i] (duplicates add up); numeric dtypes.
Tensor scatter_add_flat(const Tensor& v, FlatIndex index, const Shape& shape);

/// A tensor of `shape` (every element written once) with out.flat[where[i][j]] = xs[i].flat[j]: stack and
/// friends. The inputs share one dtype; the gradient of each input gathers its offsets.
Tensor assemble_flat(const std::vector<Tensor>& xs, std::vector<FlatIndex> where, const Shape& shape);

/// Row-major strides of a shape, in elements.
Shape strides_of(const Shape& shape);

/// The offsets offset_of(pos) for every multi-index pos of `out_shape`, in row-major order.
template <class F>
FlatIndex index_map(const Shape& out_shape, F offset_of) {
  const std::int64_t n = shape_size(out_shape);
  auto flat = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(n));
  std::vector<std::int64_t> pos(out_shape.size(), 0);
  for (std::int64_t e = 0; e < n; ++e) {
    (*flat)[static_cast<std::size_t>(e)] = offset_of(pos);
    for (std::size_t d = pos.size(); d-- > 0;) {
      if (++pos[d] < out_shape[d]) break;
      pos[d] = 0;
    }
  }
  return flat;
}

}  // namespace keras::ops::detail
