#pragma once
// Differentiable extraction of sliding windows ("im2col") from channels_last tensors, the gather
// behind locally connected layers. Valid padding: windows lie wholly inside the input.
#include "keras/ops/convolution.hpp"

namespace keras::ops {

/// x [batch, spatial... (1 to 3 axes), channels] → [batch, windows, prod(kernel) * channels], windows in
/// row-major order of the output positions, each window flattened as (kernel axes..., channel). The
/// backward adds each window's gradient back into the positions it was read from.
Tensor extract_patches(const Tensor& x, const Sizes& kernel, const Sizes& strides);

}  // namespace keras::ops
