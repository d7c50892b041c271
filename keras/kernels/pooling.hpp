#pragma once
// 1-, 2- and 3-D max and average pooling on oneDNN over channels_last tensors. Average pooling
// excludes the padding from each window's count, as Keras's "same" padding does.
#include <array>
#include <cstddef>
#include <cstdint>

namespace keras::kernels {

enum class Pooling : int { max, avg };

/// The shapes of one pooling. Only the first `rank` entries of the arrays are used (keep the others
/// at their defaults: they are part of the primitive cache key).
struct PoolArgs {
  std::int64_t rank = 2;     // spatial dimensions: 1, 2 or 3
  std::int64_t n = 0, c = 0;  // input [n, in..., c], output [n, out..., c]
  std::array<std::int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, out{1, 1, 1}, stride{1, 1, 1};
  std::array<std::int64_t, 3> pad_l{0, 0, 0}, pad_r{0, 0, 0};
};

/// Bytes of the workspace max pooling keeps for its backward pass (0 for average pooling).
std::size_t pool_workspace_bytes(Pooling kind, const PoolArgs& args);
/// y = pool(x). For max pooling, a non-null `workspace` (pool_workspace_bytes long) receives what
/// pool_backward needs; null runs the inference variant.
void pool_forward(Pooling kind, const float* x, float* y, void* workspace, const PoolArgs& args);
/// dx from dy; max pooling needs the workspace of the forward pass.
void pool_backward(Pooling kind, const float* dy, float* dx, const void* workspace, const PoolArgs& args);

}  // namespace keras::kernels
