#pragma once
// The register tiles of packed_weights.cpp: C's rows x columns as sums over taps of A's rows times a
// packed B, finished with a per-column scale and shift, a residual and relu. B comes in 16-column panels
// ([k][16] floats each, 64-byte aligned, `next_panel` floats from one panel to the next).
//   AVX2 + FMA: 6 rows x 16 columns (one panel), two registers a row: 12 accumulators.
//   AVX-512:    12 rows x 32 columns (two panels), two registers a row: 24 accumulators, four times the floats.
// Internal to the kernels floor (packed_weights.cpp, attention.cpp and winograd.cpp include it).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/row_dispatch.hpp"

namespace keras::kernels::packed_tiles {

constexpr std::int64_t kPanel = 16;    // columns of B per panel
constexpr std::int64_t kMaxRows = 12;  // rows of A per register tile, at most

/// Columns of C per tile on this CPU: one panel with AVX2, two with AVX-512.
inline std::int64_t tile_columns() { return cpu_level() == CpuLevel::avx512 ? 2 * kPanel : kPanel; }
/// Rows of C per tile on this CPU: 6 with AVX2 (12 of its 16 registers accumulate), 12 with AVX-512 (24 of 32).
inline std::int64_t tile_rows() { return cpu_level() == CpuLevel::avx512 ? kMaxRows : 6; }

/// The panel of B [k, cols] whose first column is j0: out[p][j] = B[p][j0 + j], the columns past B's zero.
/// B's row p is at b + p * ld; `transposed`: B = Mᵀ, M [cols, k] stored with row j at b + j * ld.
inline void pack_panel(const float* b, std::int64_t ld, std::int64_t k, std::int64_t cols, std::int64_t j0,
                       bool transposed, float* out) {
  const std::int64_t width = std::min(kPanel, cols - j0);
  if (transposed) {  // M's rows read in order, each into a column of the panel
    if (width < kPanel) std::fill(out, out + k * kPanel, 0.0f);
    for (std::int64_t j = 0; j < width; ++j)
      for (std::int64_t p = 0; p < k; ++p) out[p * kPanel + j] = b[(j0 + j) * ld + p];
    return;
  }
  for (std::int64_t p = 0; p < k; ++p, out += kPanel) {
    std::copy_n(b + p * ld + j0, width, out);
    std::fill(out + width, out + kPanel, 0.0f);
  }
}

// What the last pass over a tile does after the sums, per column: * scale + shift (either may be null),
// + the residual's rows (null: none), relu.
struct Finish {
  const float* scale = nullptr;
  const float* shift = nullptr;
  const float* residual = nullptr;
  std::int64_t residual_stride = 0;
  bool relu = false;
};

// Where a tile reads and writes: out[r] = the sum over the taps t of A_t[r, :depth] * panel_t[depth, width],
// where row r of A_t starts at row[r] + taps[t] and panel_t at panel + t * depth * 16 (the next 16 columns
// `next_panel` floats on). A matrix product has one tap; a convolution one per kernel row, whose depth is
// the row's positions x input channels, and its rows are output positions, whose windows need not be evenly
// spaced (a tile may span two output rows). C's first `width` columns are written, rows ldc floats apart.
struct TileArgs {
  const std::int64_t* taps;
  std::int64_t tap_count;
  const float* panel;
  std::int64_t next_panel;
  std::int64_t depth;
  float* c;
  std::int64_t ldc;
  std::int64_t width;
  bool add_to_c;          // C += the sums (a pass after the first over k)
  const Finish* finish;   // null for a pass that is not the last
};

// Fewer accumulators than the FMA units keep in flight leave them waiting on their own results: then
// `ways` independent sums over alternate steps of k, added at the end (AVX-512's rule; AVX2 keeps its own).
constexpr int ways_for(int accumulators) { return accumulators >= 8 ? 1 : accumulators >= 4 ? 2 : 4; }

namespace avx2 {

__attribute__((target("avx2,fma"))) inline __m256 load_row(const float* p, std::int64_t width, std::int64_t half,
                                                          float fill) {
  if (width == kPanel) return _mm256_loadu_ps(p + half * 8);
  alignas(32) float row[8];
  for (std::int64_t j = 0; j < 8; ++j) row[j] = half * 8 + j < width ? p[half * 8 + j] : fill;
  return _mm256_load_ps(row);
}

// One step of k for a rows x 16 tile of accumulators; row r of A at row[r].
template <int rows>
__attribute__((target("avx2,fma"), always_inline)) inline void step(__m256 (*acc)[2], const float* const* row,
                                                                    const float* panel, std::int64_t p) {
  const __m256 b0 = _mm256_load_ps(panel + p * kPanel), b1 = _mm256_load_ps(panel + p * kPanel + 8);
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r) {
    const __m256 x = _mm256_broadcast_ss(row[r] + p);
    acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
    acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
  }
}

// Kept apart from the tile's finish, whose registers made GCC spill two of the 12 accumulators in the loop.
template <int rows>
__attribute__((target("avx2,fma"), noinline)) void sums(const float* const* row, const TileArgs& t, __m256 (*out)[2]) {
  constexpr int ways = rows == 1 ? 4 : rows == 2 ? 2 : 1;  // (as measured on the AMD EPYC; 3 rows: 6 in flight)
  __m256 acc[ways][rows][2];
#pragma GCC unroll 12
  for (int w = 0; w < ways; ++w)
#pragma GCC unroll 12
    for (int r = 0; r < rows; ++r) acc[w][r][0] = acc[w][r][1] = _mm256_setzero_ps();
  const std::int64_t depth = t.depth;
  for (std::int64_t tap = 0; tap < t.tap_count; ++tap) {
    const float* at[rows];
#pragma GCC unroll 12
    for (int r = 0; r < rows; ++r) at[r] = row[r] + t.taps[tap];
    const float* pt = t.panel + tap * depth * kPanel;
    std::int64_t p = 0;
    for (; p + ways <= depth; p += ways)
#pragma GCC unroll 12
      for (int w = 0; w < ways; ++w) step<rows>(acc[w], at, pt, p + w);
    for (; p < depth; ++p) step<rows>(acc[0], at, pt, p);
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r) {
    __m256 v0 = acc[0][r][0], v1 = acc[0][r][1];
#pragma GCC unroll 12
    for (int w = 1; w < ways; ++w) {
      v0 = _mm256_add_ps(v0, acc[w][r][0]);
      v1 = _mm256_add_ps(v1, acc[w][r][1]);
    }
    out[r][0] = v0;
    out[r][1] = v1;
  }
}

template <int rows>
__attribute__((target("avx2,fma"))) void tile(const float* const* row, const TileArgs& t) {
  __m256 acc[rows][2];
  sums<rows>(row, t, acc);
  const std::int64_t width = t.width;
  const Finish* finish = t.finish;
  const __m256 zero = _mm256_setzero_ps();
  __m256 scale[2] = {_mm256_set1_ps(1.0f), _mm256_set1_ps(1.0f)}, shift[2] = {zero, zero};
  if (finish) {
    for (int h = 0; h < 2; ++h) {
      if (finish->scale) scale[h] = load_row(finish->scale, width, h, 1.0f);
      if (finish->shift) shift[h] = load_row(finish->shift, width, h, 0.0f);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r) {
    float* cr = t.c + r * t.ldc;
    __m256 v[2] = {acc[r][0], acc[r][1]};
    for (int h = 0; h < 2; ++h) {
      if (t.add_to_c) v[h] = _mm256_add_ps(v[h], load_row(cr, width, h, 0.0f));
      if (!finish) continue;
      v[h] = _mm256_fmadd_ps(v[h], scale[h], shift[h]);
      if (finish->residual) v[h] = _mm256_add_ps(v[h], load_row(finish->residual + r * finish->residual_stride, width, h, 0.0f));
      if (finish->relu) v[h] = _mm256_max_ps(v[h], zero);
    }
    if (width == kPanel) {
      _mm256_storeu_ps(cr, v[0]);
      _mm256_storeu_ps(cr + 8, v[1]);
    } else {
      alignas(32) float out[kPanel];
      _mm256_store_ps(out, v[0]);
      _mm256_store_ps(out + 8, v[1]);
      std::copy(out, out + width, cr);
    }
  }
}

}  // namespace avx2

namespace avx512 {

// One step of k for a rows x (16 x panels) tile; the second panel's row at panel1.
template <int rows, int panels>
__attribute__((target("avx512f"), always_inline)) inline void step(__m512 (*acc)[panels], const float* const* row,
                                                                   const float* panel0, const float* panel1,
                                                                   std::int64_t p) {
  __m512 b[panels];
  b[0] = _mm512_load_ps(panel0 + p * kPanel);
  if constexpr (panels == 2) b[1] = _mm512_load_ps(panel1 + p * kPanel);
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r) {
    const __m512 x = _mm512_set1_ps(row[r][p]);
    for (int h = 0; h < panels; ++h) acc[r][h] = _mm512_fmadd_ps(x, b[h], acc[r][h]);
  }
}

// `panels` (1 or 2) registers a row, one per panel.
template <int rows, int panels>
__attribute__((target("avx512f"), noinline)) void sums(const float* const* row, const TileArgs& t, __m512 (*out)[2]) {
  constexpr int ways = ways_for(panels * rows);
  __m512 acc[ways][rows][panels];
#pragma GCC unroll 12
  for (int w = 0; w < ways; ++w)
#pragma GCC unroll 12
    for (int r = 0; r < rows; ++r)
      for (int h = 0; h < panels; ++h) acc[w][r][h] = _mm512_setzero_ps();
  const std::int64_t depth = t.depth;
  for (std::int64_t tap = 0; tap < t.tap_count; ++tap) {
    const float* at[rows];
#pragma GCC unroll 12
    for (int r = 0; r < rows; ++r) at[r] = row[r] + t.taps[tap];
    const float* pt = t.panel + tap * depth * kPanel;
    const float* pt1 = pt + t.next_panel;
    std::int64_t p = 0;
    for (; p + ways <= depth; p += ways)
#pragma GCC unroll 12
      for (int w = 0; w < ways; ++w) step<rows, panels>(acc[w], at, pt, pt1, p + w);
    for (; p < depth; ++p) step<rows, panels>(acc[0], at, pt, pt1, p);
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r)
    for (int h = 0; h < panels; ++h) {
      __m512 v = acc[0][r][h];
#pragma GCC unroll 12
      for (int w = 1; w < ways; ++w) v = _mm512_add_ps(v, acc[w][r][h]);
      out[r][h] = v;
    }
}

template <int rows>
__attribute__((target("avx512f"))) void tile(const float* const* row, const TileArgs& t) {
  __m512 acc[rows][2];
  const int panels = t.width > kPanel ? 2 : 1;
  if (panels == 2) sums<rows, 2>(row, t, acc);
  else sums<rows, 1>(row, t, acc);
  const Finish* finish = t.finish;
  const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
  __mmask16 mask[2];  // the columns of each panel that are C's
  for (int h = 0; h < 2; ++h) {
    const std::int64_t w = std::clamp<std::int64_t>(t.width - h * kPanel, 0, kPanel);
    mask[h] = static_cast<__mmask16>((std::uint32_t{1} << w) - 1);
  }
  __m512 scale[2] = {one, one}, shift[2] = {zero, zero};
  if (finish) {
    for (int h = 0; h < panels; ++h) {
      if (finish->scale) scale[h] = _mm512_mask_loadu_ps(one, mask[h], finish->scale + h * kPanel);
      if (finish->shift) shift[h] = _mm512_maskz_loadu_ps(mask[h], finish->shift + h * kPanel);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < rows; ++r) {
    float* cr = t.c + r * t.ldc;
    for (int h = 0; h < panels; ++h) {
      __m512 v = acc[r][h];
      if (t.add_to_c) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask[h], cr + h * kPanel));
      if (finish) {
        v = _mm512_fmadd_ps(v, scale[h], shift[h]);
        if (finish->residual)
          v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask[h], finish->residual + r * finish->residual_stride + h * kPanel));
        if (finish->relu) v = _mm512_mask_max_ps(zero, 0xFFFF, v, zero);  // (_mm512_max_ps trips GCC 12's uninitialized warning)
      }
      _mm512_mask_storeu_ps(cr + h * kPanel, mask[h], v);
    }
  }
}

}  // namespace avx512

template <int rows>
void tile_on(bool wide, const float* const* row, const TileArgs& t) {
  if (wide) avx512::tile<rows>(row, t);
  else if constexpr (rows <= 6) avx2::tile<rows>(row, t);
}

/// Tiles of up to tile_rows() rows over `count` rows of C (stride ldc, as the residual's); next_row() gives
/// the rows of A in order. One or two rows past a full tile: two tiles of half as many rather than a full
/// one and a slow 1 or 2.
template <class NextRow>
void tiles(NextRow&& next_row, TileArgs t, std::int64_t count) {
  const bool wide = cpu_level() == CpuLevel::avx512;
  const std::int64_t most = tile_rows();
  Finish finish = t.finish ? *t.finish : Finish{};
  if (t.finish) t.finish = &finish;
  const float* residual = finish.residual;
  float* c = t.c;
  const float* row[kMaxRows];
  for (std::int64_t i = 0, rows = 0; i < count; i += rows) {
    const std::int64_t left = count - i;
    rows = left > most && left <= most + 2 ? (left + 1) / 2 : std::min(most, left);
    for (std::int64_t r = 0; r < rows; ++r) row[r] = next_row();
    t.c = c + i * t.ldc;
    if (residual) finish.residual = residual + i * t.ldc;
    with_rows<kMaxRows>(rows, [&](auto r) { tile_on<decltype(r)::value>(wide, row, t); });
  }
}

/// C [rows, cols] (row r at c + r * ldc) = A [rows, k] (row r at a + r * lda) times B packed as panels
/// [cols / 16][k][16] (pack_panel), in tiles of tile_rows() x tile_columns().
inline void multiply(const float* a, std::int64_t lda, std::int64_t rows, const float* panels, std::int64_t k,
                     std::int64_t cols, float* c, std::int64_t ldc) {
  const std::int64_t columns = tile_columns(), no_offset = 0;
  for (std::int64_t j0 = 0; j0 < cols; j0 += columns) {
    const float* next = a;
    tiles([&] { return std::exchange(next, next + lda); },
          TileArgs{.taps = &no_offset, .tap_count = 1, .panel = panels + j0 * k, .next_panel = k * kPanel, .depth = k,
                   .c = c + j0, .ldc = ldc, .width = std::min(columns, cols - j0), .add_to_c = false, .finish = nullptr},
          rows);
  }
}

}  // namespace keras::kernels::packed_tiles
