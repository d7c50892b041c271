#pragma once
// Inference: a convolution over a narrow window (an image's first layer: 5 x 5 over one channel, 3 x 3 over
// three) and the 2 x 2 max pooling of stride 2 after it, in one pass. Such a convolution does little work per
// output value, so writing its output and reading it back for the pooling costs about what the sums do: here
// each register tile sums the four positions of its pooled outputs and writes only their maximum.
#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

/// Whether conv_max_pool serves `args` on this CPU: a 2-D convolution, stride and dilation 1, one group,
/// kernel height x width x input channels of at most 75, output channels a multiple of 16 (AVX-512) or 8
/// (AVX2), an output of at least 2 x 2; and our own kernels on (own_kernels()).
bool conv_max_pool_fits(const ConvArgs& args);

/// y [n, out[0] / 2, out[1] / 2, oc] (floored: "valid" pooling) = the 2 x 2, stride 2 max pooling of
/// act(conv(x, kernel) + bias), act linear or relu; x [n, in[0], in[1], c] and kernel [k[0], k[1], c, oc]
/// as Keras holds them, bias [oc] or null. Only where conv_max_pool_fits(args).
void conv_max_pool(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& args, bool relu);

}  // namespace keras::kernels
