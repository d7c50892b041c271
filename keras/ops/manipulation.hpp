#pragma once
// Differentiable array manipulation (keras.ops): concatenate, transpose, slice, pad, repeat, expand_dims.
// Each op records its backward (the adjoint copy) on active tapes. float32 inputs.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Joins tensors along `axis` (negative counts from the end); every other dimension must agree.
Tensor concatenate(const std::vector<Tensor>& xs, int axis = -1);
/// Reorders the axes: out.shape[i] = x.shape[perm[i]].
Tensor transpose(const Tensor& x, const std::vector<int>& perm);
/// The box of `size` elements starting at `begin` (one entry per axis).
Tensor slice(const Tensor& x, const Shape& begin, const Shape& size);
/// Zero padding: `before[i]` and `after[i]` zeros around axis i.
Tensor pad(const Tensor& x, const Shape& before, const Shape& after);
/// Each element repeated `repeats` times along `axis` (NumPy's repeat): [a, b] → [a, a, b, b].
Tensor repeat(const Tensor& x, std::int64_t repeats, int axis);
/// A new axis of size 1 at `axis` (negative counts from the end of the result).
Tensor expand_dims(const Tensor& x, int axis);

}  // namespace keras::ops
