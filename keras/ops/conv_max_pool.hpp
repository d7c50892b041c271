#pragma once
// A Conv2D over a narrow window and the 2 x 2 max pooling after it as one op (keras/kernels/conv_max_pool.hpp),
// for the layers that run them together (keras/fused_chains.hpp).
#include <string>

#include "keras/ops/convolution.hpp"

namespace keras::ops {

/// max_pool(act(conv(x, kernel) + bias), {2, 2}) ("valid", stride 2), act linear or relu, in one pass where
/// that kernel serves the shapes on this CPU (stride and dilation 1, one group, a narrow window; see
/// kernels::conv_max_pool_fits); otherwise an undefined Tensor, and the caller runs the two ops. Records
/// gradients for x, kernel and bias: the pooled gradient goes back to each window's winner, then through
/// the convolution's own backward kernels. As max_pool's, its backward is not differentiable again.
Tensor conv_max_pool(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Sizes& strides,
                     const std::string& padding, const Sizes& dilation, std::int64_t groups, bool relu);

}  // namespace keras::ops
