#pragma once
// Register tiles that accumulate outer products over positions, dw[r][j] += sum over positions of x[r] * dy[j]:
// a convolution's weight gradient (conv_weight_gradient.cpp: r runs over a window's entries, j over output
// channels) and Winograd's in its transformed domain (winograd.cpp). Internal to the kernels floor.
#include <immintrin.h>

#include <cstdint>

namespace keras::kernels::outer_product_tiles {

// dw[r][j] += sum over out_rows x out_cols positions of x[r] * dy[j], for r < rows and the panel's 16 j
// (masked: only the lanes whose `lanes` are -1, the last panel's columns). x is the first position's window entry,
// x_row floats on to the next output row's, x_step to the next column's; dy's rows are oc floats apart.
template <int rows, bool masked>
__attribute__((target("avx2,fma"))) inline void tile(const float* x, std::int64_t x_row, std::int64_t x_step, const float* dy,
                                              std::int64_t oc, std::int64_t out_rows, std::int64_t out_cols, float* dw,
                                              const std::int32_t* lanes) {
  const __m256i mask[2] = {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes)),
                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lanes + 8))};
  __m256 acc[rows][2];
#pragma GCC unroll 8
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < 2; ++h)
      acc[r][h] = masked ? _mm256_maskload_ps(dw + r * oc + h * 8, mask[h]) : _mm256_loadu_ps(dw + r * oc + h * 8);
  for (std::int64_t i = 0; i < out_rows; ++i) {
    const float* xp = x + i * x_row;
    for (std::int64_t j = 0; j < out_cols; ++j, xp += x_step, dy += oc) {
      const __m256 b0 = masked ? _mm256_maskload_ps(dy, mask[0]) : _mm256_loadu_ps(dy);
      const __m256 b1 = masked ? _mm256_maskload_ps(dy + 8, mask[1]) : _mm256_loadu_ps(dy + 8);
#pragma GCC unroll 8
      for (int r = 0; r < rows; ++r) {
        const __m256 v = _mm256_broadcast_ss(xp + r);
        acc[r][0] = _mm256_fmadd_ps(v, b0, acc[r][0]);
        acc[r][1] = _mm256_fmadd_ps(v, b1, acc[r][1]);
      }
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < 2; ++h) {
      if (masked) _mm256_maskstore_ps(dw + r * oc + h * 8, mask[h], acc[r][h]);
      else _mm256_storeu_ps(dw + r * oc + h * 8, acc[r][h]);
    }
}

// AVX-512: `rows` window entries by 16 x `halves` channels, one register each (the columns of each 16 past
// oc masked off).
template <int rows, int halves>
__attribute__((target("avx512f"))) inline void tile512(const float* x, std::int64_t x_row, std::int64_t x_step, const float* dy,
                                                std::int64_t oc, std::int64_t out_rows, std::int64_t out_cols, float* dw,
                                                const __mmask16* mask) {
  __m512 acc[rows][halves];
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < halves; ++h) acc[r][h] = _mm512_maskz_loadu_ps(mask[h], dw + r * oc + h * 16);
  for (std::int64_t i = 0; i < out_rows; ++i) {
    const float* xp = x + i * x_row;
    for (std::int64_t j = 0; j < out_cols; ++j, xp += x_step, dy += oc) {
      __m512 b[halves];
      for (int h = 0; h < halves; ++h) b[h] = _mm512_maskz_loadu_ps(mask[h], dy + h * 16);
#pragma GCC unroll 12
      for (int r = 0; r < rows; ++r) {
        const __m512 v = _mm512_set1_ps(xp[r]);
        for (int h = 0; h < halves; ++h) acc[r][h] = _mm512_fmadd_ps(v, b[h], acc[r][h]);
      }
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < halves; ++h) _mm512_mask_storeu_ps(dw + r * oc + h * 16, mask[h], acc[r][h]);
}

}  // namespace keras::kernels::outer_product_tiles
