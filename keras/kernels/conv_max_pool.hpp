#pragma once
// A convolution over a narrow window (an image's first layer: 5 x 5 over one channel, 3 x 3 over three) and
// the 2 x 2 max pooling of stride 2 after it, in one pass, predicting and training. Such a convolution does little work per
// output value, so writing its output and reading it back for the pooling costs about what the sums do: here
// each register tile sums the four positions of its pooled outputs and writes only their maximum. Training
// keeps which of the four won, from which the gradient goes back to the convolution's sums.
#include <cstdint>

#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

/// Whether conv_max_pool serves `args` on this CPU: a 2-D convolution, stride and dilation 1, one group,
/// kernel height x width x input channels of at most 75, output channels a multiple of 16 (AVX-512) or 8
/// (AVX2), an output of at least 2 x 2; and our own kernels on (own_kernels()).
bool conv_max_pool_fits(const ConvArgs& args);

/// y [n, out[0] / 2, out[1] / 2, oc] (floored: "valid" pooling) = the 2 x 2, stride 2 max pooling of
/// act(conv(x, kernel) + bias), act linear or relu; x [n, in[0], in[1], c] and kernel [k[0], k[1], c, oc]
/// as Keras holds them, bias [oc] or null. `which`, when not null, gets y's shape in bytes: for each value,
/// the window position that won, 2 * row + column (0 to 3; the first of equal ones). Only where
/// conv_max_pool_fits(args).
void conv_max_pool(const float* x, const float* kernel, const float* bias, float* y, std::uint8_t* which,
                   const ConvArgs& args, bool relu);

/// Training: dz [n, out[0], out[1], oc], the gradient of the convolution's sums (before bias and
/// activation), from g = d loss / d y, the y and `which` of conv_max_pool: g at each window's winner where
/// the relu let y through (y > 0), zero elsewhere.
void max_pool_2x2_unpool(const float* g, const float* y, const std::uint8_t* which, float* dz, const ConvArgs& args,
                         bool relu);

/// Whether unpooled_weight_gradient serves `args`: where conv_backward_weights would run our weight-gradient
/// tiles (not Winograd, not oneDNN).
bool unpooled_weight_gradient_fits(const ConvArgs& args);

/// Training, when no input gradient is needed (an image's first layer): dkernel and dbias (may be null) as
/// conv_backward_weights(x, dz) with dz = max_pool_2x2_unpool(g, y, which), dz never stored whole: each
/// thread unpools the band of rows its tiles work on next into a buffer of its own. Only where
/// unpooled_weight_gradient_fits(args).
void unpooled_weight_gradient(const float* g, const float* y, const std::uint8_t* which, const float* x,
                              float* dkernel, float* dbias, const ConvArgs& args, bool relu);

}  // namespace keras::kernels
