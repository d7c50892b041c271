#pragma once
// Differentiable 2-D convolution and pooling over channels_last (NHWC) tensors, on oneDNN.
// Padding is Keras's: "valid" (none) or "same" (output = ceil(input / stride), the odd pixel of
// padding going to the bottom/right).
#include <array>
#include <string>

#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras {
/// A (height, width) pair: kernel sizes, strides, dilation rates.
using Size2 = std::array<std::int64_t, 2>;
}  // namespace keras

namespace keras::ops {

/// "(2, 3)", as shapes and pairs print in error messages.
std::string size2_str(Size2 s);


/// Padding before and after along one spatial axis.
struct Padding1D {
  std::int64_t before = 0, after = 0;
};

/// "valid" or "same" (case-insensitive) in lower case; anything else throws ValueError naming `who`.
std::string normalize_padding(const std::string& padding, const std::string& who);
/// Keras's output length along one axis (-1 for an unknown input length, which stays unknown).
std::int64_t conv_output_length(std::int64_t input, std::int64_t kernel, std::int64_t stride,
                                const std::string& padding, std::int64_t dilation = 1);
/// Keras's padding along one axis: for "same", total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0),
/// before = total / 2.
Padding1D conv_padding(std::int64_t input, std::int64_t kernel, std::int64_t stride, const std::string& padding,
                       std::int64_t dilation = 1);

/// act(conv2d(x, kernel) + bias): x [n, h, w, in], kernel [kh, kw, in, out], bias [out] or undefined.
/// The fused activation must be linear, relu, logistic or tanh. Records gradients for x, kernel, bias.
Tensor conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias = Tensor(), Size2 strides = {1, 1},
              const std::string& padding = "valid", Size2 dilation = {1, 1},
              kernels::Eltwise activation = kernels::Eltwise::linear);

/// Max pooling of x [n, h, w, c] over windows `pool_size` (padding never wins the max).
Tensor max_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding = "valid");
/// Average pooling of x [n, h, w, c]; "same" padding is excluded from each window's count.
Tensor avg_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding = "valid");

}  // namespace keras::ops
