#include "keras/kernels/conv_weight_gradient.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "keras/kernels/conv_geometry.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/outer_product_tiles.hpp"
#include "keras/kernels/prefetch.hpp"
#include "keras/kernels/row_dispatch.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

// With channels_last x and a [kh, kw, c, oc] kernel, kernel row kh's gradient is a [kw * c, oc] matrix:
//   dkernel[kh][r][o] = sum over output positions (oh, ow) of window[r] * dy[oh, ow, o],
// where window is the kw * c consecutive floats of the (padded) input at row oh * SH + kh, column ow * SW.
// An AVX2 register tile holds 6 consecutive r by 16 consecutive o (12 accumulators): per position, 6 broadcasts
// from one window and two loads from dy's row, 12 multiply-adds. AVX-512's hold 12 r by 32 o (24 accumulators).
constexpr std::int64_t kPanel = 16;          // output channels per tile: two AVX registers
constexpr std::int64_t kRows = 6;            // window entries per tile
constexpr std::int64_t kBandPositions = 96;  // output positions per work item: whole output rows of one image
// Multiply-adds below which the gradient runs on the calling thread.
constexpr std::int64_t kSerialWork = std::int64_t{1} << 18;

// db[o] += the sum over `positions` rows (oc floats apart) of dy[p][o]: up to 4 x 8 columns held in registers
// while the rows stream past (a loop adding into db row by row waited on its own stores: a third of the seed
// CNN's first weight gradient).
template <int groups>
__attribute__((target("avx2"))) inline void add_column_sums(const float* dy, std::int64_t positions, std::int64_t oc,
                                                            float* db) {
  __m256 sums[2][groups];  // even and odd rows: two independent chains of additions per register
  for (int k = 0; k < groups; ++k) sums[0][k] = sums[1][k] = _mm256_setzero_ps();
  std::int64_t p = 0;
  for (; p + 2 <= positions; p += 2, dy += 2 * oc)
    for (int k = 0; k < groups; ++k) {
      sums[0][k] = _mm256_add_ps(sums[0][k], _mm256_loadu_ps(dy + 8 * k));
      sums[1][k] = _mm256_add_ps(sums[1][k], _mm256_loadu_ps(dy + oc + 8 * k));
    }
  if (p < positions)
    for (int k = 0; k < groups; ++k) sums[0][k] = _mm256_add_ps(sums[0][k], _mm256_loadu_ps(dy + 8 * k));
  for (int k = 0; k < groups; ++k)
    _mm256_storeu_ps(db + 8 * k, _mm256_add_ps(_mm256_loadu_ps(db + 8 * k), _mm256_add_ps(sums[0][k], sums[1][k])));
}

void add_column_sums(const float* dy, std::int64_t positions, std::int64_t oc, float* db) {
  std::int64_t o = 0;
  for (; oc - o >= 32; o += 32) add_column_sums<4>(dy + o, positions, oc, db + o);
  for (; oc - o >= 8; o += 8) add_column_sums<1>(dy + o, positions, oc, db + o);
  for (; o < oc; ++o)
    for (std::int64_t p = 0; p < positions; ++p) db[o] += dy[p * oc + o];
}

// The weight gradient from dy in memory, or (dy null) from the bands dy_rows makes into a buffer of each thread.
void weight_gradient(const float* x, const float* dy, const OutputGradientRows* dy_rows, float* dkernel, float* dbias,
                     const ConvArgs& a) {
  const ConvGeometry g = conv_geometry(a);
  const std::int64_t c = g.c, oc = g.oc, window = g.KW * c, size = g.KH * window * oc;
  const bool padded = g.padded();
  if (g.n * g.OH * g.OW == 0) {  // no output position: zero gradients
    std::fill(dkernel, dkernel + size, 0.0f);
    if (dbias) std::fill(dbias, dbias + oc, 0.0f);
    return;
  }
  // Work items: runs of whole output rows of one image; each thread sums its items into its own gradient
  // and bias, added in thread order at the end.
  const std::int64_t band = std::clamp<std::int64_t>(kBandPositions / std::max<std::int64_t>(g.OW, 1), 1, g.OH);
  const std::int64_t bands = (g.OH + band - 1) / band, items = g.n * bands;
  const std::int64_t work = g.n * g.OH * g.OW * g.KH * window * oc;
  const int threads = work < kSerialWork ? 1 : omp_get_max_threads();
  std::vector<float> partial(static_cast<std::size_t>(threads) * static_cast<std::size_t>(size + oc), 0.0f);
  std::int32_t mask[kPanel];  // the last panel's columns, when oc is not a multiple of 16
  for (std::int64_t j = 0; j < kPanel; ++j) mask[j] = j < oc % kPanel ? -1 : 0;
  // Tiles: AVX2 6 window entries x 16 channels; AVX-512 12 x 32 (24 of its 32 registers).
  const bool wide = cpu_level() == CpuLevel::avx512;
  const std::int64_t tile_rows = wide ? 2 * kRows : kRows, tile_cols = wide ? 2 * kPanel : kPanel;
  int team = 1;
#pragma omp parallel num_threads(threads)
  {  // the team may be smaller than asked (nested regions): items follow the team actually running
    const std::int64_t t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    const std::int64_t chunk = (items + team - 1) / team;
    float* dw = partial.data() + t * (size + oc);
    float* db = dw + size;
    thread_local Scratch image, made;
    float* copy = padded ? image.floats(g.HP * g.WP * c) : nullptr;
    float* made_band = dy ? nullptr : made.floats(band * g.OW * oc);
    std::int64_t copied = -1;  // the image in `copy`
    const std::int64_t row = (padded ? g.WP : g.W) * c;
    // Each item's tiles fetch the next item's rows of dy, and the first item of an image the next image.
    const std::int64_t tiles = g.KH * ((window + tile_rows - 1) / tile_rows) * ((oc + tile_cols - 1) / tile_cols);
    const std::int64_t image_floats = g.H * g.W * c, last = std::min(items, (t + 1) * chunk);
    Prefetch next_dy, next_image;
    for (std::int64_t item = t * chunk; item < last; ++item) {
      const std::int64_t b = item / bands, oh0 = item % bands * band, out_rows = std::min(band, g.OH - oh0);
      if (padded && copied != b) copy_padded_image(x, b, g, copy), copied = b;
      const float* src = (padded ? copy : x + b * image_floats) + oh0 * g.SH * row;
      const float* d = made_band;
      if (dy) d = dy + (b * g.OH + oh0) * g.OW * oc;
      else (*dy_rows)(b, oh0, out_rows, made_band);
      if (dy && item + 1 < last) {
        const std::int64_t next_rows = std::min(band, g.OH - (item + 1) % bands * band);
        next_dy.start(d + out_rows * g.OW * oc, next_rows * g.OW * oc, tiles);
      }
      if (oh0 == 0 && (b + 1) * bands < last && image_floats <= Prefetch::kLargestImage)
        next_image.start(x + (b + 1) * image_floats, image_floats, bands * tiles);
      for (std::int64_t kh = 0; kh < g.KH; ++kh)
        for (std::int64_t r0 = 0; r0 < window; r0 += tile_rows) {
          const std::int64_t rows = std::min(tile_rows, window - r0);
          float* dw_rows = dw + (kh * window + r0) * oc;
          for (std::int64_t j0 = 0; j0 < oc; j0 += tile_cols) {
            const float* xs = src + kh * row + r0;
            next_dy.step();
            next_image.step();
            if (wide) {
              __mmask16 lanes[2];
              for (std::int64_t h = 0; h < 2; ++h)
                lanes[h] = static_cast<__mmask16>((std::uint32_t{1} << std::clamp<std::int64_t>(oc - j0 - h * kPanel, 0, kPanel)) - 1);
              const bool two = tile_cols > kPanel && oc - j0 > kPanel;
              with_rows<2 * kRows>(rows, [&](auto r) {
                if (two) outer_product_tiles::tile512<decltype(r)::value, 2>(xs, g.SH * row, g.SW * c, d + j0, oc, out_rows, g.OW, dw_rows + j0, lanes);
                else outer_product_tiles::tile512<decltype(r)::value, 1>(xs, g.SH * row, g.SW * c, d + j0, oc, out_rows, g.OW, dw_rows + j0, lanes);
              });
            } else {
              const bool full = oc - j0 >= kPanel;
              with_rows<kRows>(rows, [&](auto r) {
                if (full) outer_product_tiles::tile<decltype(r)::value, false>(xs, g.SH * row, g.SW * c, d + j0, oc, out_rows, g.OW, dw_rows + j0, mask);
                else outer_product_tiles::tile<decltype(r)::value, true>(xs, g.SH * row, g.SW * c, d + j0, oc, out_rows, g.OW, dw_rows + j0, mask);
              });
            }
          }
        }
      if (dbias) add_column_sums(d, out_rows * g.OW, oc, db);
    }
    image.release();
    made.release();
  }
  const float* first = partial.data();
  std::copy(first, first + size, dkernel);
  if (dbias) std::copy(first + size, first + size + oc, dbias);
  for (int t = 1; t < team; ++t) {
    const float* p = partial.data() + t * (size + oc);
    for (std::int64_t i = 0; i < size; ++i) dkernel[i] += p[i];
    if (dbias)
      for (std::int64_t o = 0; o < oc; ++o) dbias[o] += p[size + o];
  }
}

}  // namespace

bool conv_weight_gradient_fits(const ConvArgs& a) {
  if (!own_kernels() || cpu_level() < CpuLevel::avx2 || a.groups != 1 || a.rank > 2 || a.c == 0 || a.oc == 0) return false;
  for (std::int64_t i = 0; i < a.rank; ++i)
    if (a.dilation[i] != 1 || a.pad_l[i] < 0 || a.pad_r[i] < 0) return false;
  if (cpu_level() == CpuLevel::avx512) {
    // oneDNN's AVX-512 kernel is 1.1-1.5x faster than our tiles on unit strides with windows of 32 floats
    // or more, and on fewer than 32 output channels (half a tile); ours win on strided layers (1.1x) and on
    // narrow windows (5 x 5 over one channel: 1.3x) (bench/kernel_shapes, 2 threads).
    const std::int64_t window = a.k[a.rank - 1] * a.c;
    const bool strided = a.stride[0] > 1 || (a.rank == 2 && a.stride[1] > 1);
    return a.oc >= 32 && (strided || window < 32);
  }
  return true;
}

void conv_weight_gradient(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  weight_gradient(x, dy, nullptr, dkernel, dbias, a);
}

void conv_weight_gradient(const float* x, const OutputGradientRows& dy_rows, float* dkernel, float* dbias,
                          const ConvArgs& a) {
  weight_gradient(x, nullptr, &dy_rows, dkernel, dbias, a);
}

}  // namespace keras::kernels
