#include "keras/kernels/conv_max_pool.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "keras/kernels/conv_weight_gradient.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

constexpr std::int64_t kMaxWindow = 75;  // kernel height x width x input channels: 5 x 5 over 3 channels

// Where the tiles read and write. The input is the padded one (no bounds to check); `taps` holds, for each
// (kernel row, kernel column, input channel), its offset in floats from a window's first input value.
struct Plan {
  const float* kernel;
  const float* bias;
  std::int64_t row;    // floats from one input row to the next
  std::int64_t c;      // input channels (floats from one input column to the next)
  std::int64_t oc;     // output channels (floats from one kernel tap, and one output position, to the next)
  const std::int64_t* taps;
  std::int64_t tap_count;
  bool relu;
};

// The tiles below hold, per pooled output and vector of channels, four sums: the convolution at the
// window's (row, column) (0, 0), (0, 1), (1, 0), (1, 1). Each tap broadcasts one input value per sum and
// multiplies it by the tap's weights for the vector's channels. At the end: the maximum of the four, then
// + bias and the relu (max(a) + b = max(a + b) and relu(max(a)) = max(relu(a)), exactly: rounding is
// monotonic), stored.

// _mm512_max_ps, without the undefined operand GCC 12's header warns about.
__attribute__((target("avx512f"))) inline __m512 max16(__m512 a, __m512 b) {
  return _mm512_maskz_max_ps(__mmask16(0xFFFF), a, b);
}

// AVX-512: P pooled outputs side by side, V vectors of 16 channels: 4 P V accumulators (24 for P = 3, V = 2).
template <int P, int V>
__attribute__((target("avx512f"))) void tile16(const Plan& g, const float* x, std::int64_t o0, float* y,
                                               std::uint8_t* which) {
  __m512 acc[P][4][V];
#pragma GCC unroll 4
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q)
#pragma GCC unroll 2
      for (int v = 0; v < V; ++v) acc[p][q][v] = _mm512_setzero_ps();
  const float* w = g.kernel + o0;
  for (std::int64_t t = 0; t < g.tap_count; ++t, w += g.oc) {
    __m512 wv[V];
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) wv[v] = _mm512_loadu_ps(w + 16 * v);
    const float* xt = x + g.taps[t];
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
      for (int q = 0; q < 4; ++q) {
        const __m512 b = _mm512_set1_ps(xt[(q >> 1) * g.row + (2 * p + (q & 1)) * g.c]);
#pragma GCC unroll 2
        for (int v = 0; v < V; ++v) acc[p][q][v] = _mm512_fmadd_ps(b, wv[v], acc[p][q][v]);
      }
  }
#pragma GCC unroll 4
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) {
      __m512 m = max16(max16(acc[p][0][v], acc[p][1][v]), max16(acc[p][2][v], acc[p][3][v]));
      if (which) {  // the first of the four positions that holds the maximum
        __m512i q = _mm512_set1_epi32(3);
        for (int k = 2; k >= 0; --k)
          q = _mm512_mask_mov_epi32(q, _mm512_cmp_ps_mask(acc[p][k][v], m, _CMP_EQ_OQ), _mm512_set1_epi32(k));
        _mm512_mask_cvtepi32_storeu_epi8(which + p * g.oc + o0 + 16 * v, __mmask16(0xFFFF), q);
      }
      if (g.bias) m = _mm512_add_ps(m, _mm512_loadu_ps(g.bias + o0 + 16 * v));
      if (g.relu) m = max16(_mm512_setzero_ps(), m);  // a NaN stays: max returns its second operand
      _mm512_storeu_ps(y + p * g.oc + o0 + 16 * v, m);
    }
}

// AVX2: one pooled output, V vectors of 8 channels: 4 V accumulators (8 for V = 2, of 16 registers).
template <int V>
__attribute__((target("avx2,fma"))) void tile8(const Plan& g, const float* x, std::int64_t o0, float* y,
                                               std::uint8_t* which) {
  __m256 acc[4][V];
#pragma GCC unroll 4
  for (int q = 0; q < 4; ++q)
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) acc[q][v] = _mm256_setzero_ps();
  const float* w = g.kernel + o0;
  for (std::int64_t t = 0; t < g.tap_count; ++t, w += g.oc) {
    __m256 wv[V];
#pragma GCC unroll 2
    for (int v = 0; v < V; ++v) wv[v] = _mm256_loadu_ps(w + 8 * v);
    const float* xt = x + g.taps[t];
#pragma GCC unroll 4
    for (int q = 0; q < 4; ++q) {
      const __m256 b = _mm256_broadcast_ss(xt + (q >> 1) * g.row + (q & 1) * g.c);
#pragma GCC unroll 2
      for (int v = 0; v < V; ++v) acc[q][v] = _mm256_fmadd_ps(b, wv[v], acc[q][v]);
    }
  }
#pragma GCC unroll 2
  for (int v = 0; v < V; ++v) {
    __m256 m = _mm256_max_ps(_mm256_max_ps(acc[0][v], acc[1][v]), _mm256_max_ps(acc[2][v], acc[3][v]));
    if (which) {
      __m256i q = _mm256_set1_epi32(3);
      for (int k = 2; k >= 0; --k)
        q = _mm256_blendv_epi8(q, _mm256_set1_epi32(k), _mm256_castps_si256(_mm256_cmp_ps(acc[k][v], m, _CMP_EQ_OQ)));
      const __m128i q16 = _mm_packs_epi32(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(which + o0 + 8 * v), _mm_packus_epi16(q16, q16));
    }
    if (g.bias) m = _mm256_add_ps(m, _mm256_loadu_ps(g.bias + o0 + 8 * v));
    if (g.relu) m = _mm256_max_ps(_mm256_setzero_ps(), m);
    _mm256_storeu_ps(y + o0 + 8 * v, m);
  }
}

// One row of pooled outputs: `x` at its windows' first input row, `y` (and `which`, when not null) at its
// first output.
void pooled_row(const Plan& g, const float* x, std::int64_t width, float* y, std::uint8_t* which) {
  auto at = [&](std::int64_t j) { return which ? which + j * g.oc : nullptr; };
  if (cpu_level() == CpuLevel::avx512) {
    for (std::int64_t o0 = 0; o0 < g.oc; o0 += 32) {
      const bool two = g.oc - o0 >= 32;
      std::int64_t j = 0;
      for (; j + 3 <= width; j += 3) {
        const float* xj = x + 2 * j * g.c;
        two ? tile16<3, 2>(g, xj, o0, y + j * g.oc, at(j)) : tile16<3, 1>(g, xj, o0, y + j * g.oc, at(j));
      }
      for (; j < width; ++j) {
        const float* xj = x + 2 * j * g.c;
        two ? tile16<1, 2>(g, xj, o0, y + j * g.oc, at(j)) : tile16<1, 1>(g, xj, o0, y + j * g.oc, at(j));
      }
    }
    return;
  }
  for (std::int64_t o0 = 0; o0 < g.oc; o0 += 16) {
    const bool two = g.oc - o0 >= 16;
    for (std::int64_t j = 0; j < width; ++j) {
      const float* xj = x + 2 * j * g.c;
      two ? tile8<2>(g, xj, o0, y + j * g.oc, at(j)) : tile8<1>(g, xj, o0, y + j * g.oc, at(j));
    }
  }
}

// One row of the sums' gradient from a row of pooled values (max_pool_2x2_unpool): each pooled value's
// gradient goes to the window position `which` names, in this row when it is row `q0 / 2` of the window.
struct Unpool {
  const float* g;
  const float* y;
  const std::uint8_t* which;
  std::int64_t oc, width;
  int q0;  // 2 * (the row's place in its windows)
  bool relu;
};

__attribute__((target("avx512f"))) void unpool_row16(const Unpool& u, float* d) {
  for (std::int64_t j = 0; j < u.width; ++j, d += 2 * u.oc)
    for (std::int64_t o = 0; o < u.oc; o += 16) {
      const std::int64_t at = j * u.oc + o;
      const __m512 g = _mm512_loadu_ps(u.g + at);
      const __mmask16 passes =
          u.relu ? _mm512_cmp_ps_mask(_mm512_loadu_ps(u.y + at), _mm512_setzero_ps(), _CMP_GT_OQ) : __mmask16(0xFFFF);
      const __m512i q =
          _mm512_maskz_cvtepu8_epi32(__mmask16(0xFFFF), _mm_loadu_si128(reinterpret_cast<const __m128i*>(u.which + at)));
      for (int k = 0; k < 2; ++k) {
        const __mmask16 won = _mm512_mask_cmpeq_epi32_mask(passes, q, _mm512_set1_epi32(u.q0 + k));
        _mm512_storeu_ps(d + k * u.oc + o, _mm512_maskz_mov_ps(won, g));
      }
    }
}

__attribute__((target("avx2,fma"))) void unpool_row8(const Unpool& u, float* d) {
  for (std::int64_t j = 0; j < u.width; ++j, d += 2 * u.oc)
    for (std::int64_t o = 0; o < u.oc; o += 8) {
      const std::int64_t at = j * u.oc + o;
      __m256 g = _mm256_loadu_ps(u.g + at);
      if (u.relu) g = _mm256_and_ps(g, _mm256_cmp_ps(_mm256_loadu_ps(u.y + at), _mm256_setzero_ps(), _CMP_GT_OQ));
      const __m256i q = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(u.which + at)));
      for (int k = 0; k < 2; ++k) {
        const __m256i won = _mm256_cmpeq_epi32(q, _mm256_set1_epi32(u.q0 + k));
        _mm256_storeu_ps(d + k * u.oc + o, _mm256_and_ps(g, _mm256_castsi256_ps(won)));
      }
    }
}

// Rows [first_row, first_row + rows) of image `image` of max_pool_2x2_unpool's dz, at `dz`, on the calling
// thread.
void unpooled_rows(const float* g, const float* y, const std::uint8_t* which, float* dz, const ConvArgs& a, bool relu,
                   std::int64_t image, std::int64_t first_row, std::int64_t rows) {
  const std::int64_t cols = a.out[1], oc = a.oc, out_rows = a.out[0] / 2, out_cols = cols / 2;
  const bool avx512 = cpu_level() == CpuLevel::avx512;
  for (std::int64_t i = first_row; i < first_row + rows; ++i, dz += cols * oc) {
    if (i >= 2 * out_rows) {  // the row the pooling's floor left out
      std::fill(dz, dz + cols * oc, 0.f);
      continue;
    }
    const std::int64_t at = (image * out_rows + i / 2) * out_cols * oc;
    const Unpool u{g + at, y + at, which + at, oc, out_cols, static_cast<int>(2 * (i & 1)), relu};
    avx512 ? unpool_row16(u, dz) : unpool_row8(u, dz);
    std::fill(dz + 2 * out_cols * oc, dz + cols * oc, 0.f);  // the column the floor left out
  }
}

}  // namespace

bool conv_max_pool_fits(const ConvArgs& a) {
  if (!own_kernels() || a.rank != 2 || a.groups != 1 || a.out[0] < 2 || a.out[1] < 2) return false;
  for (int i = 0; i < 2; ++i)
    if (a.stride[i] != 1 || a.dilation[i] != 1 || a.pad_l[i] < 0 || a.pad_r[i] < 0) return false;
  if (a.k[0] * a.k[1] * a.c > kMaxWindow) return false;
  switch (cpu_level()) {
    case CpuLevel::avx512: return a.oc % 16 == 0;
    case CpuLevel::avx2: return a.oc % 8 == 0;
    default: return false;
  }
}

void conv_max_pool(const float* x, const float* kernel, const float* bias, float* y, std::uint8_t* which,
                   const ConvArgs& a, bool relu) {
  const std::int64_t c = a.c, rows = a.in[0] + a.pad_l[0] + a.pad_r[0], cols = a.in[1] + a.pad_l[1] + a.pad_r[1];
  const std::int64_t image = rows * cols * c;
  thread_local Scratch padded;
  const float* src = x;
  if (a.pad_l[0] || a.pad_r[0] || a.pad_l[1] || a.pad_r[1]) {  // "same": the input copied inside a zero border
    float* p = padded.floats(a.n * image);
    parallel_rows(a.n * rows, cols * c, [&](std::int64_t r) {
      float* dst = p + r * cols * c;
      const std::int64_t i = r % rows - a.pad_l[0];
      std::fill(dst, dst + cols * c, 0.f);
      if (i >= 0 && i < a.in[0]) {
        const float* from = x + ((r / rows) * a.in[0] + i) * a.in[1] * c;
        std::copy(from, from + a.in[1] * c, dst + a.pad_l[1] * c);
      }
    });
    src = p;
  }
  std::vector<std::int64_t> taps;
  for (std::int64_t i = 0; i < a.k[0]; ++i)
    for (std::int64_t j = 0; j < a.k[1]; ++j)
      for (std::int64_t ci = 0; ci < c; ++ci) taps.push_back((i * cols + j) * c + ci);
  const Plan g{kernel, bias, cols * c, c, a.oc, taps.data(), static_cast<std::int64_t>(taps.size()), relu};
  const std::int64_t out_rows = a.out[0] / 2, out_cols = a.out[1] / 2;
  parallel_rows(a.n * out_rows, out_cols * a.oc * g.tap_count * 4, [&](std::int64_t r) {
    const std::int64_t n = r / out_rows, i = r % out_rows;
    pooled_row(g, src + n * image + 2 * i * g.row, out_cols, y + r * out_cols * a.oc,
               which ? which + r * out_cols * a.oc : nullptr);
  });
  padded.release();
}

void max_pool_2x2_unpool(const float* g, const float* y, const std::uint8_t* which, float* dz, const ConvArgs& a,
                         bool relu) {
  const std::int64_t rows = a.out[0], row_floats = a.out[1] * a.oc;
  parallel_rows(a.n * rows, row_floats, [&](std::int64_t r) {
    unpooled_rows(g, y, which, dz + r * row_floats, a, relu, r / rows, r % rows, 1);
  });
}

bool unpooled_weight_gradient_fits(const ConvArgs& a) { return !winograd_fits(a) && conv_weight_gradient_fits(a); }

void unpooled_weight_gradient(const float* g, const float* y, const std::uint8_t* which, const float* x,
                              float* dkernel, float* dbias, const ConvArgs& a, bool relu) {
  const OutputGradientRows unpooled = [&](std::int64_t image, std::int64_t first_row, std::int64_t rows, float* out) {
    unpooled_rows(g, y, which, out, a, relu, image, first_row, rows);
  };
  conv_weight_gradient(x, unpooled, dkernel, dbias, a);
}

}  // namespace keras::kernels
