#pragma once
// keras.ops stack, unstack, split and squeeze on any axis, for any dtype; differentiable (to any order) for
// float inputs.
#include <optional>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Joins tensors of one shape along a new axis `axis` (negative counts from the end of the result).
/// Inputs of different dtypes are converted to float32.
Tensor stack(const std::vector<Tensor>& xs, int axis = 0);
/// The slices of x along `axis`, that axis removed. `num`, when given, must equal x.shape[axis].
std::vector<Tensor> unstack(const Tensor& x, std::optional<std::int64_t> num = std::nullopt, int axis = 0);
/// `sections` equal pieces along `axis` (the axis length must divide evenly).
std::vector<Tensor> split(const Tensor& x, std::int64_t sections, int axis = 0);
/// Pieces cut before each of `indices` along `axis` (NumPy's array_split points; they clip to the axis).
std::vector<Tensor> split(const Tensor& x, const std::vector<std::int64_t>& indices, int axis = 0);
/// x without its size-1 axes (all of them when `axes` is empty); a listed axis of another size is an error.
Tensor squeeze(const Tensor& x, const std::vector<int>& axes = {});

}  // namespace keras::ops
