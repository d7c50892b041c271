#pragma once
// keras.ops cumsum and cumprod, and prod. Numeric dtypes (int32/int64 stay integer, uint8 and bool become int32, as
// Keras widens small integers); float inputs are differentiable. cumsum's gradient is a reversed cumsum, so it
// differentiates to any order; cumprod's and prod's gradients are computed in loops (exact with zeros in the
// input) and are first-order only.
#include <optional>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Running sum along `axis`, or over the flattened x without an axis.
Tensor cumsum(const Tensor& x, std::optional<int> axis = std::nullopt);
/// Running product along `axis`, or over the flattened x without an axis.
Tensor cumprod(const Tensor& x, std::optional<int> axis = std::nullopt);
/// Product over `axes` (all axes when empty).
Tensor prod(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);

}  // namespace keras::ops
