#pragma once
// Integer-array indexing of keras.ops (numpy.py): take, take_along_axis, and tf.gather_nd. Any dtype;
// differentiable with respect to float inputs (the gradient scatter-adds, to any order). Indices are
// integer tensors (int32/int64; integral floats are accepted); negative ones count from the end of their axis.
#include <optional>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Elements of x along `axis` at `indices`: out.shape = x.shape[:axis] + indices.shape + x.shape[axis+1:].
/// Without an axis, x is flattened first (NumPy's take).
Tensor take(const Tensor& x, const Tensor& indices, std::optional<int> axis = std::nullopt);
/// NumPy's take_along_axis: out[..., i, ...] = x[..., indices[..., i, ...], ...] along `axis`; the other
/// axes of x and indices broadcast. Without an axis, both are flattened.
Tensor take_along_axis(const Tensor& x, const Tensor& indices, std::optional<int> axis = std::nullopt);
/// tf.gather_nd: indices [..., m] address the first m axes of x; out.shape = indices.shape[:-1] + x.shape[m:].
Tensor gather_nd(const Tensor& x, const Tensor& indices);

namespace detail {
/// indices as int64 offsets along an axis of length `dim` (negatives wrapped); throws naming `op` when out of range.
std::vector<std::int64_t> axis_indices(const Tensor& indices, std::int64_t dim, const char* op);
int normalize_axis(int axis, int rank, const char* op);
}  // namespace detail

}  // namespace keras::ops
