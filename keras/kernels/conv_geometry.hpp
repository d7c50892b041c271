#pragma once
// The sizes of a 1-D or 2-D channels_last convolution as our own kernels read them (a 1-D convolution is a
// 2-D one of height 1), and the copy of one image into zeros that makes every window plain memory.
#include <algorithm>
#include <cstdint>

#include "keras/kernels/convolution.hpp"

namespace keras::kernels {

struct ConvGeometry {
  std::int64_t n, c, oc;
  std::int64_t H, W, OH, OW, KH, KW, SH, SW;
  std::int64_t top, left, HP, WP;  // padding before each axis, and the padded sizes
  bool padded() const { return HP != H || WP != W; }
};

inline ConvGeometry conv_geometry(const ConvArgs& a) {
  const bool flat = a.rank == 1;
  ConvGeometry g{};
  g.n = a.n, g.c = a.c, g.oc = a.oc;
  g.H = flat ? 1 : a.in[0], g.W = a.in[flat ? 0 : 1];
  g.OH = flat ? 1 : a.out[0], g.OW = a.out[flat ? 0 : 1];
  g.KH = flat ? 1 : a.k[0], g.KW = a.k[flat ? 0 : 1];
  g.SH = flat ? 1 : a.stride[0], g.SW = a.stride[flat ? 0 : 1];
  g.top = flat ? 0 : a.pad_l[0], g.left = a.pad_l[flat ? 0 : 1];
  g.HP = g.H + g.top + (flat ? 0 : a.pad_r[0]), g.WP = g.W + g.left + a.pad_r[flat ? 0 : 1];
  return g;
}

/// Image b of x [n, H, W, c] copied into zeros of [HP, WP, c] at `out`.
inline void copy_padded_image(const float* x, std::int64_t b, const ConvGeometry& g, float* out) {
  const std::int64_t c = g.c, row = g.WP * c;
  for (std::int64_t hp = 0; hp < g.HP; ++hp, out += row) {
    const std::int64_t h = hp - g.top;
    if (h < 0 || h >= g.H) {
      std::fill(out, out + row, 0.0f);
      continue;
    }
    const float* in = x + (b * g.H + h) * g.W * c;
    std::fill(out, out + g.left * c, 0.0f);
    std::copy(in, in + g.W * c, out + g.left * c);
    std::fill(out + (g.left + g.W) * c, out + row, 0.0f);
  }
}

}  // namespace keras::kernels
