#pragma once
// The weight gradient of a 1-D or 2-D convolution on our own AVX2 + FMA register tiles, reading the
// channels_last input and output gradient where they are. oneDNN 2.6's AVX2 backward-weights kernels ran
// ResNet-20's 3x3 layers at 69-75 GFLOP/s on two cores (about half the sgemm ceiling) and the seed CNN's
// 5x5 over one channel at 31.
#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

/// Whether conv_weight_gradient serves this convolution: AVX2 exactly (AVX-512 and the x86-64 baseline
/// keep oneDNN's), 1-D or 2-D, no groups, no dilation.
bool conv_weight_gradient_fits(const ConvArgs& args);

/// dkernel [k..., c, oc] = the gradient of the convolution's kernel from x and dy (both channels_last),
/// and dbias [oc] (when not null) = dy summed over every position.
void conv_weight_gradient(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& args);

}  // namespace keras::kernels
