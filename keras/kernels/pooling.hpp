#pragma once
// 2-D max and average pooling on oneDNN over NHWC tensors. Average pooling excludes the padding
// from each window's count, as Keras's "same" padding does.
#include <cstddef>
#include <cstdint>

namespace keras::kernels {

enum class Pooling : int { max, avg };

struct Pool2DArgs {
  std::int64_t n, h, w, c;  // input [n, h, w, c]
  std::int64_t kh, kw;      // window
  std::int64_t oh, ow;      // output [n, oh, ow, c]
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
};

/// Bytes of the workspace max pooling keeps for its backward pass (0 for average pooling).
std::size_t pool2d_workspace_bytes(Pooling kind, const Pool2DArgs& args);
/// y = pool(x). For max pooling, a non-null `workspace` (pool2d_workspace_bytes long) receives what
/// pool2d_backward needs; null runs the inference variant.
void pool2d_forward(Pooling kind, const float* x, float* y, void* workspace, const Pool2DArgs& args);
/// dx from dy; max pooling needs the workspace of the forward pass.
void pool2d_backward(Pooling kind, const float* dy, float* dx, const void* workspace, const Pool2DArgs& args);

}  // namespace keras::kernels
