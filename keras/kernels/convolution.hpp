#pragma once
// 2-D convolution on oneDNN over Keras's layouts: input and output NHWC, kernel [kh, kw, in, out].
#include <cstdint>

#include "keras/kernels/eltwise.hpp"

namespace keras::kernels {

struct Conv2DArgs {
  std::int64_t n, h, w, c;             // input [n, h, w, c]
  std::int64_t kh, kw, oc;             // kernel [kh, kw, c, oc]
  std::int64_t oh, ow;                 // output [n, oh, ow, oc]
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t dilation_h = 1, dilation_w = 1;  // Keras's dilation_rate (1 = none)
  std::int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

/// y = act(conv(x, kernel) + bias); `bias` [oc] may be null; act is linear, relu, logistic or tanh.
void conv2d_forward(const float* x, const float* kernel, const float* bias, float* y, const Conv2DArgs& args,
                    Eltwise activation = Eltwise::linear);
/// dx from dy (the gradient of the convolution before any activation).
void conv2d_backward_data(const float* dy, const float* kernel, float* dx, const Conv2DArgs& args);
/// dkernel (and dbias when not null) from x and dy.
void conv2d_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const Conv2DArgs& args);

}  // namespace keras::kernels
