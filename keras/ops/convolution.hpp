#pragma once
// Differentiable 1-, 2- and 3-D convolutions and transposed convolutions over channels_last tensors
// ([batch, spatial..., channels]), on oneDNN. Padding is Keras's: "valid" (none), "same" (output =
// ceil(input / stride), the odd element of padding going to the end) or, for 1-D convolutions,
// "causal" (all padding before).
#include <array>
#include <string>
#include <vector>

#include "keras/epilogue.hpp"
#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras {
/// A (height, width) pair: kernel sizes, strides, dilation rates.
using Size2 = std::array<std::int64_t, 2>;
/// A (depth, height, width) triple.
using Size3 = std::array<std::int64_t, 3>;
/// One value per spatial axis, of any rank.
using Sizes = std::vector<std::int64_t>;
}  // namespace keras

namespace keras::ops {

/// "(2, 3)", as shapes and pairs print in error messages.
std::string size2_str(Size2 s);
/// "(2, 3, 1)" for any number of values.
std::string sizes_str(const Sizes& s);

/// Padding before and after along one spatial axis.
struct Padding1D {
  std::int64_t before = 0, after = 0;
};

/// "valid" or "same" (or "causal" when `allow_causal`), case-insensitive, in lower case; anything
/// else throws ValueError naming `who`.
std::string normalize_padding(const std::string& padding, const std::string& who, bool allow_causal = false);
/// Keras's output length along one axis (-1 for an unknown input length, which stays unknown).
std::int64_t conv_output_length(std::int64_t input, std::int64_t kernel, std::int64_t stride,
                                const std::string& padding, std::int64_t dilation = 1);
/// Keras's padding along one axis: for "same", total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0),
/// before = total / 2; for "causal", before = (k - 1) * dilation.
Padding1D conv_padding(std::int64_t input, std::int64_t kernel, std::int64_t stride, const std::string& padding,
                       std::int64_t dilation = 1);
/// Keras's output length of a transposed convolution along one axis; output_padding < 0 means None.
std::int64_t deconv_output_length(std::int64_t input, std::int64_t kernel, std::int64_t stride,
                                  const std::string& padding, std::int64_t output_padding = -1,
                                  std::int64_t dilation = 1);

/// act(conv(x, kernel) + bias) over the x.ndim() - 2 spatial axes (1, 2 or 3): x [n, spatial..., in],
/// kernel [k..., in / groups, out], bias [out] or undefined. Empty `strides` / `dilation` mean 1.
/// The fused activation must be linear, relu, logistic or tanh. Records gradients for x, kernel, bias.
Tensor conv(const Tensor& x, const Tensor& kernel, const Tensor& bias = Tensor(), const Sizes& strides = {},
            const std::string& padding = "valid", const Sizes& dilation = {}, std::int64_t groups = 1,
            kernels::Eltwise activation = kernels::Eltwise::linear);
/// Inference only (nothing is recorded): conv(x, kernel) + bias followed by `epilogue` (keras/epilogue.hpp)
/// in one convolution: its affine step folded into the kernel and bias, its residual and activation run as
/// oneDNN post-ops. The residual must have the output's shape.
Tensor conv_inference(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Sizes& strides,
                      const std::string& padding, const Sizes& dilation, std::int64_t groups, const Epilogue& epilogue);
/// act(conv_transpose(x, kernel) + bias): x [n, spatial..., in], kernel [k..., out, in], bias [out] or
/// undefined, Keras's Conv*DTranspose (the gradient of a convolution with respect to its input).
/// Empty `output_padding` means None (Keras's default output size).
Tensor conv_transpose(const Tensor& x, const Tensor& kernel, const Tensor& bias = Tensor(), const Sizes& strides = {},
                      const std::string& padding = "valid", const Sizes& output_padding = {},
                      const Sizes& dilation = {}, kernels::Eltwise activation = kernels::Eltwise::linear);

/// act(conv2d(x, kernel) + bias): x [n, h, w, in], kernel [kh, kw, in, out], bias [out] or undefined.
Tensor conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias = Tensor(), Size2 strides = {1, 1},
              const std::string& padding = "valid", Size2 dilation = {1, 1},
              kernels::Eltwise activation = kernels::Eltwise::linear);

}  // namespace keras::ops

#include "keras/ops/pooling.hpp"  // max_pool2d and friends lived here first
