#pragma once
// The weight gradient of a 1-D or 2-D convolution on our own register tiles (AVX2 + FMA, or AVX-512),
// reading the channels_last input and output gradient where they are. oneDNN 2.6's AVX2 backward-weights
// kernels ran ResNet-20's 3x3 layers at 69-75 GFLOP/s on two cores (about half the sgemm ceiling) and the
// seed CNN's 5x5 over one channel at 31; its AVX-512 kernels are faster than ours on most shapes.
#include <cstdint>
#include <functional>

#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

/// Whether conv_weight_gradient serves this convolution: 1-D or 2-D, no groups, no dilation; on AVX2 always,
/// on AVX-512 only with 32 output channels or more and a stride or windows (kernel width x channels) of
/// fewer than 32 floats (where oneDNN's is slower); never on the x86-64 baseline or under KERAS_OWN_KERNELS=0.
bool conv_weight_gradient_fits(const ConvArgs& args);

/// dkernel [k..., c, oc] = the gradient of the convolution's kernel from x and dy (both channels_last),
/// and dbias [oc] (when not null) = dy summed over every position.
void conv_weight_gradient(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& args);

/// Writes rows [first_row, first_row + rows) of image `image` of a convolution's output gradient (rows x
/// output width x oc floats) to `out`. Called from any of the OpenMP team's threads.
using OutputGradientRows =
    std::function<void(std::int64_t image, std::int64_t first_row, std::int64_t rows, float* out)>;

/// The same, with dy never stored whole: each thread has dy_rows make the band of rows it works on next into
/// a buffer of its own that stays in cache (max pooling's backward pass, keras/ops/conv_max_pool.cpp, which
/// would otherwise write the whole unpooled gradient and read it back).
void conv_weight_gradient(const float* x, const OutputGradientRows& dy_rows, float* dkernel, float* dbias,
                          const ConvArgs& args);

}  // namespace keras::kernels
