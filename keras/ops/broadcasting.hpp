#pragma once
// keras.ops broadcast_to and tile, for any dtype; differentiable (to any order) for float inputs.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// x broadcast to `shape` with NumPy's rules (x's axes align with the last ones of `shape`; size-1 axes repeat).
Tensor broadcast_to(const Tensor& x, const Shape& shape);
/// x repeated reps[i] times along axis i (NumPy's tile: shorter reps are padded with 1 on the left, a shorter
/// x gets leading axes of size 1).
Tensor tile(const Tensor& x, const std::vector<std::int64_t>& reps);

/// The shape NumPy broadcasting gives a and b; throws naming `op` when they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

}  // namespace keras::ops
