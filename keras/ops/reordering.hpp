#pragma once
// keras.ops flip and roll, for any dtype; differentiable (to any order) for float inputs.
#include <optional>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// x reversed along `axes` (all axes when empty).
Tensor flip(const Tensor& x, const std::vector<int>& axes = {});
/// Elements shifted by `shift` along `axis` (wrapping around), or over the flattened x without an axis.
Tensor roll(const Tensor& x, std::int64_t shift, std::optional<int> axis = std::nullopt);

}  // namespace keras::ops

namespace keras::ops {
/// NumPy's transpose for any dtype: out.shape[i] = x.shape[perm[i]] (differentiable to any order for floats).
Tensor permute_axes(const Tensor& x, const std::vector<int>& perm);
}  // namespace keras::ops
