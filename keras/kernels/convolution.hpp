#pragma once
// 1-, 2- and 3-D convolution and transposed convolution on oneDNN over Keras's layouts: inputs and
// outputs channels_last ([n, spatial..., c]); convolution kernels [k..., c / groups, oc] (output
// channel g * oc / groups + o belongs to group g); transposed-convolution kernels [k..., oc, c].
#include <array>
#include <cstdint>

#include "keras/kernels/eltwise.hpp"

namespace keras::kernels {

/// The shapes of one convolution. Only the first `rank` entries of the arrays are used (keep the
/// others at their defaults: they are part of the primitive cache key).
struct ConvArgs {
  std::int64_t rank = 2;          // spatial dimensions: 1, 2 or 3
  std::int64_t n = 0, c = 0;      // batch, input channels
  std::int64_t oc = 0;            // output channels
  std::int64_t groups = 1;        // convolution only; transposed convolutions have 1
  std::array<std::int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, out{1, 1, 1};
  std::array<std::int64_t, 3> stride{1, 1, 1};
  std::array<std::int64_t, 3> dilation{1, 1, 1};  // Keras's dilation_rate (1 = none)
  std::array<std::int64_t, 3> pad_l{0, 0, 0}, pad_r{0, 0, 0};  // pad_r may be negative for transposed ones
};

/// y = act(conv(x, kernel) + bias); `bias` [oc] may be null; act is linear, relu, logistic or tanh.
void conv_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& args,
                  Eltwise activation = Eltwise::linear);
/// Inference only (no backward pass follows): y = act(conv(x, kernel) + bias + residual), with `residual`
/// shaped like y (or null) added inside the convolution's epilogue, as one pass over y. The kernel in the
/// layout oneDNN chose is kept under (kernel, version) until the version changes, as packed_conv keeps its
/// pack (version 0: reordered on every call).
void conv_inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                    const float* residual, float* y, const ConvArgs& args, Eltwise activation = Eltwise::linear);
/// dx from dy (the gradient of the convolution before any activation).
void conv_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& args);
/// dkernel (and dbias when not null) from x and dy.
void conv_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& args);
/// Whether the convolution runs on our Winograd kernels (winograd.hpp: 3 x 3, unit stride, 16 channels or
/// more, AVX2 and up) rather than direct ones: training's forward (linear or relu), backward data and
/// weights, or with `inference` conv_inference's (linear or relu), whose kernel transform is kept between
/// calls, so that fewer blocks of outputs pay. KERAS_WINOGRAD=0 keeps every layer direct.
bool winograd_fits(const ConvArgs& args, bool inference = false);

/// The transposed convolution (oneDNN's deconvolution): y = act(conv_transpose(x, kernel) + bias).
void conv_transpose_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& args,
                            Eltwise activation = Eltwise::linear);
void conv_transpose_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& args);
void conv_transpose_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias,
                                     const ConvArgs& args);

}  // namespace keras::kernels
