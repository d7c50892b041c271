#include "keras/kernels/attention.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/packed_tiles.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/scratch.hpp"
#include "keras/kernels/vector_math.hpp"

namespace keras::kernels {
namespace {

using packed_tiles::kPanel;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::int64_t padded(std::int64_t cols) { return (cols + kPanel - 1) / kPanel * kPanel; }

// 128-bit lanes of a and b: kPick 0x88 takes lanes 0 and 2 of each, 0xDD lanes 1 and 3. (The masked forms of
// the shuffles here and below: GCC 12 warns on the plain ones.)
template <int kPick>
__attribute__((target("avx512f"))) __m512 lanes(__m512 a, __m512 b) {
  return _mm512_maskz_shuffle_f32x4(0xFFFF, a, b, kPick);
}

// dst[c * ldd + r] = src[r * lds + c] for r < rows, c < cols, in 16 x 16 blocks transposed in registers (a
// scalar loop's strided stores were ~5 cycles a float here: a head's rows are 1 KiB apart, which maps them
// onto few cache sets). `whole_rows`: each dst row takes 16 floats from r = 0 on, zeros past `rows` (a
// panel's row), rather than only its `rows` floats.
__attribute__((target("avx512f"))) void transpose16(const float* src, std::int64_t lds, std::int64_t rows,
                                                    std::int64_t cols, float* dst, std::int64_t ldd, bool whole_rows) {
  const auto mask = [](std::int64_t n) { return n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1); };
  for (std::int64_t r0 = 0; r0 < rows; r0 += 16)
    for (std::int64_t c0 = 0; c0 < cols; c0 += 16) {
      const std::int64_t nr = std::min<std::int64_t>(16, rows - r0), nc = std::min<std::int64_t>(16, cols - c0);
      __m512 r[16], a[16], b[16];
      for (int i = 0; i < 16; ++i)
        r[i] = i < nr ? _mm512_maskz_loadu_ps(mask(nc), src + (r0 + i) * lds + c0) : _mm512_setzero_ps();
      // Per 128-bit lane: rows i and i + 1 interleaved, elements 0-1 and 2-3.
      for (int i = 0; i < 16; i += 2) {
        a[i] = _mm512_maskz_unpacklo_ps(0xFFFF, r[i], r[i + 1]);
        a[i + 1] = _mm512_maskz_unpackhi_ps(0xFFFF, r[i], r[i + 1]);
      }
      for (int g = 0; g < 16; g += 4) {  // b[g + m], lane L: rows g..g+3 of element 4L + m
        const __m512d x0 = _mm512_castps_pd(a[g]), x1 = _mm512_castps_pd(a[g + 1]);
        const __m512d x2 = _mm512_castps_pd(a[g + 2]), x3 = _mm512_castps_pd(a[g + 3]);
        b[g] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xFF, x0, x2));
        b[g + 1] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xFF, x0, x2));
        b[g + 2] = _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xFF, x1, x3));
        b[g + 3] = _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xFF, x1, x3));
      }
      const __mmask16 store = whole_rows ? __mmask16(0xFFFF) : mask(nr);
      for (int m = 0; m < 4; ++m) {  // element 4L + m gathers lane L of b[m], b[4 + m], b[8 + m], b[12 + m]
        const __m512 p0 = lanes<0x88>(b[m], b[4 + m]), p1 = lanes<0xDD>(b[m], b[4 + m]);
        const __m512 q0 = lanes<0x88>(b[8 + m], b[12 + m]), q1 = lanes<0xDD>(b[8 + m], b[12 + m]);
        const __m512 out[4] = {lanes<0x88>(p0, q0), lanes<0x88>(p1, q1), lanes<0xDD>(p0, q0), lanes<0xDD>(p1, q1)};
        for (int L = 0; L < 4; ++L)
          if (4 * L + m < nc) _mm512_mask_storeu_ps(dst + (c0 + 4 * L + m) * ldd + r0, store, out[L]);
      }
    }
}

// The same under AVX2, in 8 x 8 register blocks; a block that overhangs the edge goes element by element
// (AMD microcodes AVX2's masked stores, `vmaskmovps`).
__attribute__((target("avx2,fma"))) void transpose8(const float* src, std::int64_t lds, std::int64_t rows,
                                                    std::int64_t cols, float* dst, std::int64_t ldd, bool whole_rows) {
  const std::int64_t out_rows = whole_rows ? (rows + kPanel - 1) / kPanel * kPanel : rows;
  for (std::int64_t r0 = 0; r0 < out_rows; r0 += 8)
    for (std::int64_t c0 = 0; c0 < cols; c0 += 8) {
      const std::int64_t nr = std::clamp<std::int64_t>(rows - r0, 0, 8), nc = std::min<std::int64_t>(8, cols - c0);
      if (nr < 8 || nc < 8) {
        const std::int64_t width = whole_rows ? 8 : nr;
        for (std::int64_t c = 0; c < nc; ++c)
          for (std::int64_t r = 0; r < width; ++r)
            dst[(c0 + c) * ldd + r0 + r] = r < nr ? src[(r0 + r) * lds + c0 + c] : 0.0f;
        continue;
      }
      __m256 r[8], a[8], b[8];
      for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + (r0 + i) * lds + c0);
      for (int i = 0; i < 8; i += 2) {  // per 128-bit half: rows i and i + 1 interleaved
        a[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        a[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
      }
      for (int g = 0; g < 8; g += 4) {  // b[g + m], half L: rows g..g+3 of element 4L + m
        b[g] = _mm256_shuffle_ps(a[g], a[g + 2], 0x44);
        b[g + 1] = _mm256_shuffle_ps(a[g], a[g + 2], 0xEE);
        b[g + 2] = _mm256_shuffle_ps(a[g + 1], a[g + 3], 0x44);
        b[g + 3] = _mm256_shuffle_ps(a[g + 1], a[g + 3], 0xEE);
      }
      for (int m = 0; m < 4; ++m) {  // element m: the low halves of b[m] and b[4 + m]; element 4 + m the high
        _mm256_storeu_ps(dst + (c0 + m) * ldd + r0, _mm256_permute2f128_ps(b[m], b[4 + m], 0x20));
        _mm256_storeu_ps(dst + (c0 + 4 + m) * ldd + r0, _mm256_permute2f128_ps(b[m], b[4 + m], 0x31));
      }
    }
}

// The transpose this CPU runs best.
void transpose(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols, float* dst,
               std::int64_t ldd, bool whole_rows) {
  if (cpu_level() == CpuLevel::avx512) transpose16(src, lds, rows, cols, dst, ldd, whole_rows);
  else transpose8(src, lds, rows, cols, dst, ldd, whole_rows);
}

// B [k, cols] as 16-column panels [cols / 16][k][16] (see packed_tiles::pack_panel); `transposed`: B = Mᵀ,
// M [cols, k] with row j at b + j * ld.
void pack(const float* b, std::int64_t ld, std::int64_t k, std::int64_t cols, bool transposed, float* out) {
  for (std::int64_t j0 = 0; j0 < cols; j0 += kPanel, out += k * kPanel)
    if (transposed)
      transpose(b + j0 * ld, ld, std::min(kPanel, cols - j0), k, out, kPanel, true);
    else
      packed_tiles::pack_panel(b, ld, k, cols, j0, false, out);
}

// A vector register's lanes, stored, folded left to right with op: their sum, or their largest.
template <std::size_t N, class Op>
float fold(const float (&lanes)[N], Op op) {
  float r = lanes[0];
  for (std::size_t l = 1; l < N; ++l) r = op(r, lanes[l]);
  return r;
}
float add(float a, float b) { return a + b; }
float larger(float a, float b) { return b > a ? b : a; }

// x[j] = e^(x[j] - shift - col[j]) (col may be null) over one row of n floats; returns their sum, or NaN
// when the row holds a NaN (which then stays in x).
__attribute__((target("avx512f"))) float exp_row16(float* x, std::int64_t n, float shift, const float* col) {
  const __m512 s = _mm512_set1_ps(shift), zero = _mm512_setzero_ps();
  __m512 sum = zero;
  __mmask16 nan = 0;
  for (std::int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1);
    __m512 v = _mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + j), s);
    if (col) v = _mm512_sub_ps(v, _mm512_maskz_loadu_ps(m, col + j));
    nan |= _mm512_mask_cmp_ps_mask(m, v, v, _CMP_UNORD_Q);
    const __m512 e = _mm512_maskz_mov_ps(m, vector_math::exp16(v));
    _mm512_mask_storeu_ps(x + j, m, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (nan) return kNaN;
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  return fold(lanes, add);
}

// The largest of n floats (NaNs aside: exp_row16 finds those).
__attribute__((target("avx512f"))) float max_row16(const float* x, std::int64_t n) {
  const __m512 low = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  __m512 top = low;
  for (std::int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1);
    top = _mm512_mask_max_ps(top, 0xFFFF, top, _mm512_mask_loadu_ps(low, m, x + j));  // (the masked forms: GCC 12
  }                                                                                    // warns on the plain ones)
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, top);
  return fold(lanes, larger);
}

// exp_row16 and max_row16 under AVX2: a row's last n < 8 floats go through a buffer filled with `fill`.
__attribute__((target("avx2,fma"))) __m256 tail8(const float* x, std::int64_t n, float fill) {
  alignas(32) float pad[8];
  for (int l = 0; l < 8; ++l) pad[l] = l < n ? x[l] : fill;
  return _mm256_load_ps(pad);
}

__attribute__((target("avx2,fma"))) float exp_row8(float* x, std::int64_t n, float shift, const float* col) {
  const __m256 s = _mm256_set1_ps(shift);
  __m256 sum = _mm256_setzero_ps();
  int nan = 0;
  for (std::int64_t j = 0; j < n; j += 8) {
    const bool whole = n - j >= 8;
    __m256 v = _mm256_sub_ps(whole ? _mm256_loadu_ps(x + j) : tail8(x + j, n - j, 0.0f), s);
    if (col) v = _mm256_sub_ps(v, whole ? _mm256_loadu_ps(col + j) : tail8(col + j, n - j, 0.0f));
    nan |= _mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) & (whole ? 0xFF : (1 << (n - j)) - 1);
    const __m256 e = vector_math::exp8(v);
    if (whole) {
      _mm256_storeu_ps(x + j, e);
      sum = _mm256_add_ps(sum, e);
      continue;
    }
    alignas(32) float out[8];
    _mm256_store_ps(out, e);
    for (std::int64_t l = 0; l < n - j; ++l) x[j + l] = out[l];
    for (std::int64_t l = n - j; l < 8; ++l) out[l] = 0.0f;
    sum = _mm256_add_ps(sum, _mm256_load_ps(out));
  }
  if (nan) return kNaN;
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  return fold(lanes, add);
}

__attribute__((target("avx2,fma"))) float max_row8(const float* x, std::int64_t n) {
  const float low = -std::numeric_limits<float>::infinity();
  __m256 top = _mm256_set1_ps(low);
  for (std::int64_t j = 0; j < n; j += 8)
    top = _mm256_max_ps(top, n - j >= 8 ? _mm256_loadu_ps(x + j) : tail8(x + j, n - j, low));
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, top);
  return fold(lanes, larger);
}

// The variant this CPU runs best.
float exp_row(float* x, std::int64_t n, float shift, const float* col) {
  return cpu_level() == CpuLevel::avx512 ? exp_row16(x, n, shift, col) : exp_row8(x, n, shift, col);
}
float max_row(const float* x, std::int64_t n) {
  return cpu_level() == CpuLevel::avx512 ? max_row16(x, n) : max_row8(x, n);
}

// Each row of scores [rows, cols] becomes its softmax; lse (may be null) gets max + log(sum).
void softmax_rows(float* x, std::int64_t rows, std::int64_t cols, float* lse) {
  for (std::int64_t r = 0; r < rows; ++r) {
    float* row = x + r * cols;
    const float top = max_row(row, cols);
    const float sum = exp_row(row, cols, top, nullptr);
    const float inv = 1.0f / sum;  // NaN for a row with a NaN, which the row then holds throughout
    with_best_cpu([&] {
      for (std::int64_t j = 0; j < cols; ++j) row[j] *= inv;
    });
    if (lse) lse[r] = top + std::log(sum);
  }
}

// One thread's scratch for a head: room for `floats` floats, 64-byte aligned (the panels' loads need it).
float* aligned_scratch(std::int64_t floats) {
  thread_local Scratch scratch;
  return scratch.aligned_floats(floats);
}

// Where head i's first row starts in a [n / h, rows, h, depth] tensor (h = 1: a plain stack); its rows are
// h * depth floats apart.
std::int64_t head_offset(const AttentionArgs& a, std::int64_t i, std::int64_t rows, std::int64_t depth) {
  return (i / a.h * rows * a.h + i % a.h) * depth;
}

}  // namespace

bool attention_fits(const AttentionArgs& a) {
  // AVX2 or better: under AVX2 the core alone ran at 0.68-0.92x oneDNN's batched products and softmax over
  // plain stacks (bench/kernel_shapes), but in MultiHeadAttention it also spares the head transposes and the
  // weights tensor: the Transformer block trains 6-9% faster on it, and predicts 2-3% faster. At least a
  // head per thread, as the heads are what the threads share.
  return own_kernels() && cpu_level() >= CpuLevel::avx2 && a.n >= omp_get_max_threads() && a.t > 0 &&
         a.s > 0 && a.d > 0 && a.dv > 0 && a.t <= 512 && a.s <= 512 && a.d <= 256 && a.dv <= 256;
}

void attention_forward(const float* q, const float* k, const float* v, float* o, float* lse, const AttentionArgs& a) {
  const std::int64_t T = a.t, S = a.s, d = a.d, dv = a.dv, ld = a.h * d, ldv = a.h * dv;
  parallel_rows(a.n, T * S * (d + dv), [&](std::int64_t i) {
    const float* qi = q + head_offset(a, i, T, d);
    const float *ki = k + head_offset(a, i, S, d), *vi = v + head_offset(a, i, S, dv);
    float* scores = aligned_scratch(T * padded(S) + std::max(d * padded(S), S * padded(dv)));
    float* panels = scores + T * padded(S);
    pack(ki, ld, d, S, true, panels);
    packed_tiles::multiply(qi, ld, T, panels, d, S, scores, S);
    softmax_rows(scores, T, S, lse ? lse + i * T : nullptr);
    pack(vi, ldv, S, dv, false, panels);
    packed_tiles::multiply(scores, S, T, panels, S, dv, o + head_offset(a, i, T, dv), ldv);
  });
}

void attention_backward(const float* q, const float* k, const float* v, const float* o, const float* lse,
                        const float* d_o, float* dq, float* dk, float* dv, const AttentionArgs& a) {
  const std::int64_t T = a.t, S = a.s, d = a.d, Dv = a.dv, ld = padded(T), lq = a.h * d, lv = a.h * Dv;
  parallel_rows(a.n, T * S * (2 * d + 2 * Dv), [&](std::int64_t i) {
    const std::int64_t at_q = head_offset(a, i, T, d), at_k = head_offset(a, i, S, d);
    const std::int64_t at_o = head_offset(a, i, T, Dv), at_v = head_offset(a, i, S, Dv);
    const float *qi = q + at_q, *ki = k + at_k, *vi = v + at_v, *oi = o + at_o, *doi = d_o + at_o, *lsei = lse + i * T;
    const std::int64_t panel_floats = std::max({d * ld, T * padded(Dv), Dv * ld, T * padded(d), S * ld});
    // Weights and their gradient transposed, [S, T] (rows ld floats apart), then the panels, K^T, dQ^T, and D.
    float* pt = aligned_scratch(2 * S * ld + panel_floats + d * S + d * ld + T);
    float *dst = pt + S * ld, *panels = dst + S * ld, *kt = panels + panel_floats, *dqt = kt + d * S;
    float* D = dqt + d * ld;
    // Pᵀ = e^(K Qᵀ - lse), column by column.
    pack(qi, lq, d, T, true, panels);
    packed_tiles::multiply(ki, lq, S, panels, d, T, pt, ld);
    for (std::int64_t s = 0; s < S; ++s) exp_row(pt + s * ld, T, 0.0f, lsei);
    // dV = Pᵀ dO.
    pack(doi, lv, T, Dv, false, panels);
    packed_tiles::multiply(pt, ld, S, panels, T, Dv, dv + at_v, lv);
    // dPᵀ = V dOᵀ; dSᵀ = Pᵀ (dPᵀ - D), D[t] = dO[t] · O[t].
    pack(doi, lv, Dv, T, true, panels);
    packed_tiles::multiply(vi, lv, S, panels, Dv, T, dst, ld);
    with_best_cpu([&] {
      for (std::int64_t t = 0; t < T; ++t) {  // 16 running sums, so that the loop vectorizes
        const float *x = doi + t * lv, *y = oi + t * lv;
        float part[16] = {};
        std::int64_t j = 0;
        for (; j + 16 <= Dv; j += 16)
          for (int l = 0; l < 16; ++l) part[l] += x[j + l] * y[j + l];
        float sum = 0.0f;
        for (; j < Dv; ++j) sum += x[j] * y[j];
        for (float p : part) sum += p;
        D[t] = sum;
      }
    });
    with_best_cpu([&] {
      for (std::int64_t s = 0; s < S; ++s) {
        float* __restrict g = dst + s * ld;
        const float* __restrict p = pt + s * ld;
        for (std::int64_t t = 0; t < T; ++t) g[t] = p[t] * (g[t] - D[t]);
      }
    });
    // dK = dSᵀ Q.
    pack(qi, lq, T, d, false, panels);
    packed_tiles::multiply(dst, ld, S, panels, T, d, dk + at_k, lq);
    // dQᵀ = Kᵀ dSᵀ, then transposed into dQ.
    transpose(ki, lq, S, d, kt, S, false);
    pack(dst, ld, S, T, false, panels);
    packed_tiles::multiply(kt, S, d, panels, S, T, dqt, ld);
    transpose(dqt, ld, d, T, dq + at_q, lq, false);
  });
}

}  // namespace keras::kernels
