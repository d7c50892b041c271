#pragma once
// Writing at integer indices (keras.ops core.py / math.py): scatter, scatter_update, segment_sum, segment_max and
// tf.scatter_nd. Numeric dtypes; differentiable with respect to float values and inputs (the gradient
// gathers, to any order).
#include <optional>

#include "keras/tensor.hpp"

namespace keras::ops {

/// zeros(shape) with values[i] added at the position indices[i] (indices [N, m] address the first m axes of
/// `shape`; values [N] + shape[m:]). Duplicate indices add up, as Keras's scatter and tf.scatter_nd.
Tensor scatter(const Tensor& indices, const Tensor& values, const Shape& shape);
/// tf.scatter_nd's name for scatter.
Tensor scatter_nd(const Tensor& indices, const Tensor& updates, const Shape& shape);
/// A copy of `inputs` with updates[i] written at indices[i] (replacing; with duplicates the last one wins).
Tensor scatter_update(const Tensor& inputs, const Tensor& indices, const Tensor& updates);
/// out[s] = sum of data[i] over the rows i with segment_ids[i] == s; out.shape = [num_segments] + data.shape[1:].
/// num_segments defaults to max(segment_ids) + 1; ids outside [0, num_segments) are dropped, as
/// tf.math.unsorted_segment_sum. `sorted` is accepted for Keras's signature (the result does not depend on it).
Tensor segment_sum(const Tensor& data, const Tensor& segment_ids, std::optional<std::int64_t> num_segments = std::nullopt,
                   bool sorted = false);
/// out[s] = the element-wise max of data[i] over the rows i with segment_ids[i] == s (keras.ops.segment_max,
/// tf.math.unsorted_segment_max): ids and num_segments as segment_sum; an empty segment holds the dtype's
/// lowest value, as TensorFlow. Any numeric dtype; the gradient (float32, float64) goes to the rows that hold
/// the max, shared equally among ties (as TensorFlow and PyTorch), and differentiates again.
Tensor segment_max(const Tensor& data, const Tensor& segment_ids, std::optional<std::int64_t> num_segments = std::nullopt,
                   bool sorted = false);

}  // namespace keras::ops
