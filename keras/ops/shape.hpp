#pragma once
// Differentiable shape and indexing ops.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// A new shape over the same values (one dimension may be -1).
Tensor reshape(const Tensor& x, const Shape& shape);
/// Rows of x (along axis 0) picked by `indices` (int32/int64), copied.
Tensor take_rows(const Tensor& x, const Tensor& indices);
Tensor take_rows(const Tensor& x, const std::vector<std::int64_t>& indices);
/// One-hot float32 encoding of integer labels: shape labels.shape + (depth,). Not differentiable.
Tensor one_hot(const Tensor& labels, std::int64_t depth);

}  // namespace keras::ops
