#pragma once
// Winograd F(4 x 4, 3 x 3)'s transforms for winograd.cpp (internal to the kernels floor), at the points 0,
// 1, -1, 2, -2 and infinity (Lavin and Gray, 2016): per 4 x 4 block of outputs y = Aᵀ [(G k Gᵀ) ⊙ (Bᵀ d B)] A,
// d the 6 x 6 inputs under the block, k the 3 x 3 kernel. Each transform is one of these matrices applied
// along one axis, written out, vectorized over the channels: the blocks' for AVX-512 or AVX2 + FMA
// (cpu_dispatch.hpp's with_best_cpu), the kernel's for AVX2 + FMA.
#include <algorithm>
#include <cstdint>

#include "keras/kernels/packed_tiles.hpp"

namespace keras::kernels::winograd_detail {

using packed_tiles::kPanel;
constexpr int kElements = 36;  // 6 x 6 transformed values per block and channel

// A correlation out[y][x][o] = sum over i, j < 3 and c of in[y - top + i][x - left + j][c] * k[i][j][c][o],
// the input zero outside its ih x iw positions: the forward pass, and (over dy, the kernel turned) the
// backward-data pass.
struct Plane {
  std::int64_t n, ih, iw, ic, oh, ow, oc, top, left;
  std::int64_t side = 4;  // a block's outputs down and across: 4 for F(4 x 4, 3 x 3), 2 for F(2 x 2, 3 x 3)
  std::int64_t block_rows() const { return (oh + side - 1) / side; }
  std::int64_t block_cols() const { return (ow + side - 1) / side; }
  std::int64_t blocks() const { return n * block_rows() * block_cols(); }
};

inline std::int64_t padded(std::int64_t n) { return (n + kPanel - 1) / kPanel * kPanel; }

// The `tmp` floats the transforms below take: the input's 36 x ic, the output's 24 x oc and a sink of oc,
// the output gradient's 24 x oc.
inline std::int64_t transform_room(std::int64_t ic, std::int64_t oc) { return std::max(kElements * ic, 25 * oc); }

// Where block `id` (image, block row, block column in that order) starts: its top-left output position.
struct BlockAt {
  std::int64_t image, y, x;
};
inline BlockAt block_at(const Plane& p, std::int64_t id) {
  return {id / (p.block_rows() * p.block_cols()), id / p.block_cols() % p.block_rows() * p.side,
          id % p.block_cols() * p.side};
}

// in[j] = the input under position j (j < n) of row i of block `at`'s window, or `zeros` outside the input.
inline void window_row(const float* x, const Plane& p, const BlockAt& at, int i, int n, const float* zeros,
                       const float** in) {
  const std::int64_t y = at.y - p.top + i;
  for (int j = 0; j < n; ++j) {
    const std::int64_t xx = at.x - p.left + j;
    in[j] = y >= 0 && y < p.ih && xx >= 0 && xx < p.iw ? x + ((at.image * p.ih + y) * p.iw + xx) * p.ic : zeros;
  }
}

// Where output column j of block `at` goes, row i < p.side: out[i] into y (or `sink` past the plane's edge),
// add[i] the residual's there (`zeros` past the edge, or without one).
template <bool with_residual>
inline void output_column(float* y, const float* residual, const Plane& p, const BlockAt& at, int j, float* sink,
                          const float* zeros, float** out, const float** add) {
  for (int i = 0; i < p.side; ++i) {
    const bool inside = at.y + i < p.oh;
    const std::int64_t at_out = ((at.image * p.oh + at.y + i) * p.ow + at.x + j) * p.oc;
    out[i] = inside ? y + at_out : sink;
    add[i] = with_residual && inside ? residual + at_out : zeros;
  }
}

// v[e * stride + c] = element e (6 i + j) of Bᵀ d B, d the 6 x 6 inputs of block `id` (zeros: ic zeros for
// the positions outside the input; tmp: transform_room).
void input_transform(const float* x, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* v,
                     std::int64_t stride);

// Block `id`'s outputs = Aᵀ m A + bias (never null: a `bias ? bias[o] : 0` became a masked load, which
// faults its way through a null pointer at many times a load's cost), + the residual's (shaped like y) when
// `with_residual`, then relu; m's element e of channel o at m[e * stride + o]; outputs past the plane's edge
// are dropped. tmp: transform_room (its sink at 24 x oc); zeros: oc of them.
template <bool with_residual>
void output_transform(const float* m, std::int64_t stride, const Plane& p, std::int64_t id, const float* bias,
                      const float* residual, const float* zeros, bool relu, float* tmp, float* y);

// g[e * stride + o] = element e of A g Aᵀ, g the 4 x 4 output gradients of block `id` (zeros outside the
// plane); their sum over positions is added to db. tmp: transform_room.
void gradient_transform(const float* dy, const Plane& p, std::int64_t id, const float* zeros, float* tmp, float* g,
                        std::int64_t stride, float* db);

// G k Gᵀ of the correlation's kernel k [3][3][ic][oc], as 36 packed B matrices [ic, oc] (element e's at
// panels + e * ic * padded(oc)). `turned`: k[i][j][c][o] = w[2 - i][2 - j][o][c], w [3][3][oc][ic] (the
// backward-data pass); otherwise k = w. Vectorized over o, whose 16-column runs are contiguous in a panel.
__attribute__((target("avx2,fma"))) void kernel_transform(const float* w, std::int64_t ic, std::int64_t oc, bool turned,
                                                          float* panels);

// dkernel [3][3][ic][oc] = Gᵀ du G, du [36][ic][oc] the gradient of the transformed kernel (vectorized over
// ic x oc).
__attribute__((target("avx2,fma"))) void kernel_gradient_transform(const float* du, std::int64_t ic, std::int64_t oc,
                                                                   float* dkernel);

}  // namespace keras::kernels::winograd_detail
