#pragma once
// Differentiable 1-, 2- and 3-D max and average pooling over channels_last tensors, on oneDNN.
#include "keras/ops/convolution.hpp"

namespace keras::ops {

/// Max pooling of x [n, spatial..., c] over windows `pool_size` (padding never wins the max).
/// Empty `strides` means the pool size.
Tensor max_pool(const Tensor& x, const Sizes& pool_size, const Sizes& strides = {},
                const std::string& padding = "valid");
/// Average pooling of x [n, spatial..., c]; "same" padding is excluded from each window's count.
Tensor avg_pool(const Tensor& x, const Sizes& pool_size, const Sizes& strides = {},
                const std::string& padding = "valid");

/// Max pooling of x [n, h, w, c].
Tensor max_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding = "valid");
/// Average pooling of x [n, h, w, c].
Tensor avg_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding = "valid");

}  // namespace keras::ops
