#pragma once
// Training's 3 x 3 convolutions at unit stride as Winograd's F(4 x 4, 3 x 3): each 4 x 4 block of outputs
// comes from a 6 x 6 block of inputs through 36 elementwise products in a transformed domain, a quarter of
// the direct multiply-adds. The 36 products of a run of blocks are matrix products over the channels on our
// register tiles (packed_tiles.hpp: AVX2 or AVX-512), with the transforms around them done while the run
// stays in the cache. Sums stray from the exact ones by about 1e-5 of each result's largest value (the
// direct kernels: 1e-9). Inference runs them too, its kernel's transform kept from call to call, and for
// one small image F(2 x 2, 3 x 3), 16 products over 4 x 4 inputs per 2 x 2 block (winograd_f2_fits).
#include <cstdint>

#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

/// Whether our Winograd kernels serve this convolution (convolution.hpp's winograd_fits also honours
/// KERAS_WINOGRAD=0): AVX2 or AVX-512, our own kernels allowed, channels_last 2-D, 3 x 3,
/// unit stride, no dilation, padding of at most 1 on each side, 16 channels or more in and out, and enough
/// 4 x 4 blocks of outputs for every thread: 2 x kRun each in training; for `inference`, whose kernel
/// transform is kept, 2 each, and as many as training's unless the transform takes at most 16 MiB (a call
/// with few blocks streams all of it for little work).
bool own_winograd_fits(const ConvArgs& args, bool inference = false);

/// Whether winograd_inference runs F(2 x 2, 3 x 3) rather than F(4 x 4, 3 x 3) (within own_winograd_fits's
/// shapes): on AVX-512, for fewer than 8 blocks of 4 x 4 outputs per thread.
bool winograd_f2_fits(const ConvArgs& args);

/// y = act(conv(x, kernel) + bias), act linear or relu (bias may be null).
void winograd_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& args,
                      bool relu);
/// Inference's y = act(conv(x, kernel) + bias + residual), act linear or relu (bias and residual, shaped
/// like y, may be null), with the kernel's transform kept under (kernel, version) until the version changes
/// (0: transformed on every call), as packed_conv keeps its pack; F(2 x 2, 3 x 3) where winograd_f2_fits.
void winograd_inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                        const float* residual, float* y, const ConvArgs& args, bool relu);
/// dx from dy: the same transforms, over dy, with the kernel turned 180 degrees and its channels swapped.
void winograd_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& args);
/// dkernel from x and dy, summed in the transformed domain; dbias (may be null) = dy summed over positions.
void winograd_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& args);

}  // namespace keras::kernels
