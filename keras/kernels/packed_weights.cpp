#include "keras/kernels/packed_weights.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#include "keras/kernels/conv_geometry.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/eltwise.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/prefetch.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

constexpr std::int64_t kPanel = 16;   // columns of B per panel: two AVX registers
constexpr std::int64_t kRows = 6;     // rows of A per register tile: 6 x 2 accumulators of 16 registers
constexpr std::int64_t kDepth = 256;  // steps of k per pass of a matrix product: a panel's 16 KiB stay in L1
constexpr std::int64_t kChunk = 72;   // rows of A per work item of a matrix product: 72 x 256 floats stay in L2
constexpr std::size_t kCacheLimit = std::size_t{256} << 20;
constexpr std::int64_t kLargestPack = std::int64_t{16} << 20;  // floats; larger weights stay with oneDNN
// Multiply-adds below which a product runs on the calling thread: waking the pool costs about as much
// (an LSTM step of one sequence, 128 units, is 65 Ki).
constexpr std::int64_t kSerialWork = std::int64_t{1} << 18;

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};

// B [k, n] as panels [n / 16][k][16], the last panel's missing columns zero.
struct Packed {
  std::uint64_t version = 0;
  std::int64_t k = 0, n = 0;
  bool trans_b = false;
  std::unique_ptr<float, FreeDeleter> panels;
  std::size_t bytes = 0;
};

struct Cache {
  std::unordered_map<const float*, Packed> entries;
  std::size_t bytes = 0;
};

Cache& cache() {
  thread_local Cache c;
  return c;
}

std::int64_t panel_count(std::int64_t n) { return (n + kPanel - 1) / kPanel; }

void pack(const float* b, std::int64_t k, std::int64_t n, bool trans_b, float* out) {
  parallel_rows(panel_count(n), k * kPanel, [&](std::int64_t p) {
    float* dst = out + p * k * kPanel;
    const std::int64_t j0 = p * kPanel, width = std::min(kPanel, n - j0);
    for (std::int64_t r = 0; r < k; ++r, dst += kPanel) {
      for (std::int64_t j = 0; j < width; ++j) dst[j] = trans_b ? b[(j0 + j) * k + r] : b[r * n + j0 + j];
      std::fill(dst + width, dst + kPanel, 0.0f);
    }
  });
}

// The pack of B [k, n] (stored as [n, k] when trans_b) under (b, version), made when missing or stale.
const Packed& packed(const float* b, std::uint64_t version, std::int64_t k, std::int64_t n, bool trans_b) {
  Cache& c = cache();
  auto it = c.entries.find(b);
  if (it != c.entries.end()) {
    const Packed& e = it->second;
    if (e.version == version && e.k == k && e.n == n && e.trans_b == trans_b) return e;
    c.bytes -= e.bytes;
    c.entries.erase(it);
  }
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(panel_count(n) * k * kPanel);
  if (c.bytes + bytes > kCacheLimit) {
    c.entries.clear();
    c.bytes = 0;
  }
  auto* memory = static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
  if (!memory) throw std::bad_alloc();
  Packed e{.version = version, .k = k, .n = n, .trans_b = trans_b,
           .panels = std::unique_ptr<float, FreeDeleter>(memory), .bytes = bytes};
  pack(b, k, n, trans_b, memory);
  c.bytes += bytes;
  return c.entries.emplace(b, std::move(e)).first->second;
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

// One step of k for a rows x 16 tile of accumulators; row r of A at row[r].
template <int rows>
__attribute__((target("avx2,fma"), always_inline)) inline void step(__m256 (*acc)[2], const float* const* row,
                                                                    const float* panel, std::int64_t p) {
  const __m256 b0 = _mm256_load_ps(panel + p * kPanel), b1 = _mm256_load_ps(panel + p * kPanel + 8);
#pragma GCC unroll 8
  for (int r = 0; r < rows; ++r) {
    const __m256 x = _mm256_broadcast_ss(row[r] + p);
    acc[r][0] = _mm256_fmadd_ps(x, b0, acc[r][0]);
    acc[r][1] = _mm256_fmadd_ps(x, b1, acc[r][1]);
  }
}

__attribute__((target("avx2,fma"))) inline __m256 load_row(const float* p, std::int64_t width, std::int64_t half,
                                                          float fill) {
  if (width == kPanel) return _mm256_loadu_ps(p + half * 8);
  alignas(32) float row[8];
  for (std::int64_t j = 0; j < 8; ++j) row[j] = half * 8 + j < width ? p[half * 8 + j] : fill;
  return _mm256_load_ps(row);
}

// The sums of a tile: out[r] = the sum over the taps t of A_t[r, :depth] * panel_t[depth, 16], where row r
// of A_t starts at row[r] + taps[t] and panel_t at panel + t * depth * 16. A matrix product has one tap; a
// convolution one per kernel row, whose depth is the row's positions x input channels, and its rows are output
// positions, whose windows need not be evenly spaced (a tile may span two output rows). Kept apart from
// the tile's finish, whose registers made GCC spill two of the 12 accumulators inside the loop.
template <int rows>
__attribute__((target("avx2,fma"), noinline)) void sums(const float* const* row, const std::int64_t* taps,
                                                        std::int64_t tap_count, const float* panel, std::int64_t depth,
                                                        __m256 (*out)[2]) {
  // Fewer than 3 rows leave the FMA units waiting on their own results: then `ways` independent sums over
  // alternate steps of k, added at the end.
  constexpr int ways = rows == 1 ? 4 : rows == 2 ? 2 : 1;
  __m256 acc[ways][rows][2];
#pragma GCC unroll 8
  for (int w = 0; w < ways; ++w)
#pragma GCC unroll 8
    for (int r = 0; r < rows; ++r) acc[w][r][0] = acc[w][r][1] = _mm256_setzero_ps();
  for (std::int64_t t = 0; t < tap_count; ++t) {
    const float* at[rows];
#pragma GCC unroll 8
    for (int r = 0; r < rows; ++r) at[r] = row[r] + taps[t];
    const float* pt = panel + t * depth * kPanel;
    std::int64_t p = 0;
    for (; p + ways <= depth; p += ways)
#pragma GCC unroll 8
      for (int w = 0; w < ways; ++w) step<rows>(acc[w], at, pt, p + w);
    for (; p < depth; ++p) step<rows>(acc[0], at, pt, p);
  }
#pragma GCC unroll 8
  for (int r = 0; r < rows; ++r) {
    __m256 v0 = acc[0][r][0], v1 = acc[0][r][1];
#pragma GCC unroll 8
    for (int w = 1; w < ways; ++w) {
      v0 = _mm256_add_ps(v0, acc[w][r][0]);
      v1 = _mm256_add_ps(v1, acc[w][r][1]);
    }
    out[r][0] = v0;
    out[r][1] = v1;
  }
}

// A tile of C, rows x 16 (`width` < 16: only the first columns are C's): its sums, added to C when
// `add_to_c`, then `finish` (null for a pass that is not the last).
template <int rows>
__attribute__((target("avx2,fma"))) void tile(const float* const* row, const std::int64_t* taps,
                                              std::int64_t tap_count, const float* panel, std::int64_t depth, float* c,
                                              std::int64_t ldc, std::int64_t width, bool add_to_c,
                                              const Finish* finish) {
  __m256 acc[rows][2];
  sums<rows>(row, taps, tap_count, panel, depth, acc);
  const __m256 zero = _mm256_setzero_ps();
  __m256 scale[2] = {_mm256_set1_ps(1.0f), _mm256_set1_ps(1.0f)}, shift[2] = {zero, zero};
  if (finish) {
    for (int h = 0; h < 2; ++h) {
      if (finish->scale) scale[h] = load_row(finish->scale, width, h, 1.0f);
      if (finish->shift) shift[h] = load_row(finish->shift, width, h, 0.0f);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    __m256 v[2] = {acc[r][0], acc[r][1]};
    for (int h = 0; h < 2; ++h) {
      if (add_to_c) v[h] = _mm256_add_ps(v[h], width == kPanel ? _mm256_loadu_ps(cr + h * 8) : load_row(cr, width, h, 0.0f));
      if (!finish) continue;
      v[h] = _mm256_fmadd_ps(v[h], scale[h], shift[h]);
      if (finish->residual) {
        const float* res = finish->residual + r * finish->residual_stride;
        v[h] = _mm256_add_ps(v[h], width == kPanel ? _mm256_loadu_ps(res + h * 8) : load_row(res, width, h, 0.0f));
      }
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

// Tiles of up to 6 rows over `count` rows of C (stride ldc, as the residual's); next_row() gives the
// rows of A in order. 7 or 8 rows left: two tiles of 3-4 rows rather than 6 and a slow 1 or 2.
template <class NextRow>
void tiles(NextRow&& next_row, const std::int64_t* taps, std::int64_t tap_count, const float* panel,
           std::int64_t depth, float* c, std::int64_t ldc, std::int64_t width, bool add_to_c, Finish* finish,
           std::int64_t count) {
  const float* residual = finish ? finish->residual : nullptr;
  const float* row[kRows];
  for (std::int64_t i = 0, rows = 0; i < count; i += rows) {
    const std::int64_t left = count - i;
    rows = left == 7 || left == 8 ? 4 : std::min(kRows, left);
    for (std::int64_t r = 0; r < rows; ++r) row[r] = next_row();
    float* ci = c + i * ldc;
    if (residual) finish->residual = residual + i * ldc;
    switch (rows) {
      case 6: tile<6>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish); break;
      case 5: tile<5>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish); break;
      case 4: tile<4>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish); break;
      case 3: tile<3>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish); break;
      case 2: tile<2>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish); break;
      default: tile<1>(row, taps, tap_count, panel, depth, ci, ldc, width, add_to_c, finish);
    }
  }
}

// Activations the tiles do not finish with run over the output afterwards.
void finish_activation(Eltwise f, float* y, std::int64_t size) {
  if (f != Eltwise::linear && f != Eltwise::relu) eltwise_forward(f, 1.0f, 0.0f, y, y, size);
}

}  // namespace

bool packed_matmul_fits(const MatmulArgs& args) {
  return cpu_level() == CpuLevel::avx2 && !args.trans_a && !args.accumulate && args.k > 0 &&
         args.k * panel_count(args.n) * kPanel <= kLargestPack;
}

void packed_matmul(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                   std::int64_t lda) {
  if (args.m == 0 || args.n == 0) return;
  const std::int64_t m = args.m, n = args.n, k = args.k, stride = lda > 0 ? lda : k;
  const Packed& pb = packed(b, version, k, n, args.trans_b);
  const std::int64_t chunks = (m + kChunk - 1) / kChunk, panels = panel_count(n);
  const std::int64_t no_offset = 0;
  // Work items chunk-major: consecutive items of a thread share their rows of A.
  const std::int64_t grain = m * n * k < kSerialWork ? 0 : k * kPanel * std::min(m, kChunk);  // 0: serial
  parallel_rows(chunks * panels, grain, [&](std::int64_t item) {
    const std::int64_t i0 = item / panels * kChunk, p = item % panels, j0 = p * kPanel;
    const std::int64_t rows = std::min(m, i0 + kChunk) - i0, width = std::min(kPanel, n - j0);
    for (std::int64_t k0 = 0; k0 < k; k0 += kDepth) {
      const std::int64_t depth = std::min(kDepth, k - k0);
      Finish finish{.shift = args.bias ? args.bias + j0 : nullptr, .relu = args.activation == Eltwise::relu};
      const float* next = a + i0 * stride + k0;
      tiles([&] { return std::exchange(next, next + stride); }, &no_offset, 1, pb.panels.get() + (p * k + k0) * kPanel, depth,
            c + i0 * n + j0, n, width, k0 > 0, k0 + depth == k ? &finish : nullptr, rows);
    }
  });
  finish_activation(args.activation, c, m * n);
}

bool packed_conv_fits(const ConvArgs& a) {
  if (cpu_level() != CpuLevel::avx2 || a.groups != 1 || a.rank > 2 || a.c == 0) return false;
  // Where our tiles beat oneDNN's (forward, 2 threads, best of 30): a window row of at least 32 floats, and
  // not a 1 x 1 kernel (a plain product, where oneDNN's gemm kernels are 1.25-3x faster). 3 x 3 over 32-256
  // channels: 1.1-1.55x oneDNN's speed; over 1-8 channels (the first layer of an image model): 0.46-0.8x.
  const std::int64_t row = (a.rank == 2 ? a.k[1] : a.k[0]) * a.c, taps = a.k[0] * (a.rank == 2 ? a.k[1] : 1);
  if (row < 32 || taps == 1) return false;
  if (taps * a.c * panel_count(a.oc) * kPanel > kLargestPack) return false;
  for (std::int64_t i = 0; i < a.rank; ++i)
    if (a.dilation[i] != 1 || a.pad_l[i] < 0 || a.pad_r[i] < 0) return false;
  return true;
}

void packed_conv(const float* x, const float* kernel, std::uint64_t version, const float* scale, const float* shift,
                 const float* residual, float* y, const ConvArgs& a, Eltwise activation) {
  const ConvGeometry g = conv_geometry(a);
  const std::int64_t c = g.c, oc = g.oc, positions = g.OH * g.OW;
  if (g.n * oc * positions == 0) return;
  const Packed& pk = packed(kernel, version, g.KH * g.KW * c, oc, false);
  // Padding: each thread copies the image its work item reads into zeros (kept for its next items of the
  // same image; the buffer stays with the thread for the next call, up to 64 MiB), so that every window
  // reads plain memory, and fetches the next image while its tiles run.
  const bool padded = g.padded();
  const std::int64_t row = (padded ? g.WP : g.W) * c, image_floats = g.H * g.W * c;
  // One tap per kernel row: its KW positions read KW * c consecutive floats of the input, as the pack holds
  // the kernel's rows (so a 5 x 5 kernel over 1 channel sums 5 taps of depth 5, not 25 of 1).
  std::vector<std::int64_t> taps;  // where each kernel row reads, from its window's corner
  for (std::int64_t i = 0; i < g.KH; ++i) taps.push_back(i * row);
  // Work items: a run of up to 96 output positions of one image (across its rows, so that tiles stay full)
  // against one panel of output channels; items image-major, so that a thread's items share its copy.
  const std::int64_t panels = panel_count(oc), span = 16 * kRows;
  const std::int64_t runs = (positions + span - 1) / span, items = g.n * runs * panels;
  struct ThreadState {
    std::int64_t image = -1;  // the image this thread's items read last (its padded copy, when padded)
    Prefetch next_image;
  };
  std::vector<ThreadState> state(static_cast<std::size_t>(omp_get_max_threads()));
  parallel_rows(items, std::min(span, positions) * c * g.KH * g.KW * kPanel, [&](std::int64_t item) {
    const std::int64_t b = item / (runs * panels), q0 = item / panels % runs * span, p = item % panels;
    const std::int64_t j0 = p * kPanel, count = std::min(span, positions - q0);
    ThreadState& own = state[static_cast<std::size_t>(omp_get_thread_num())];
    thread_local Scratch image;
    float* copy = padded ? image.floats(g.HP * g.WP * c) : nullptr;
    if (own.image != b) {
      if (padded) copy_padded_image(x, b, g, copy);
      own.image = b;
      if (b + 1 < g.n && image_floats <= Prefetch::kLargestImage)
        own.next_image.start(x + (b + 1) * image_floats, image_floats, positions * panels);
    }
    const float* src = padded ? copy : x + b * image_floats;
    const std::int64_t down = g.SH * row, across = g.SW * c;  // from a window to the next row's, column's
    std::int64_t ow = q0 % g.OW;
    const float* left_end = src + q0 / g.OW * down;  // the first window of the current output row
    const float* corner = left_end + ow * across;
    Prefetch& next_image = own.next_image;
    auto window = [&] {  // the corner of the next output position's window
      const float* at = corner;
      corner += across;
      if (++ow == g.OW) ow = 0, left_end += down, corner = left_end;
      next_image.step();
      return at;
    };
    const std::int64_t first = b * positions + q0;  // in y's and the residual's rows
    Finish finish{.scale = scale ? scale + j0 : nullptr, .shift = shift ? shift + j0 : nullptr,
                  .residual = residual ? residual + first * oc + j0 : nullptr, .residual_stride = oc,
                  .relu = activation == Eltwise::relu};
    tiles(window, taps.data(), static_cast<std::int64_t>(taps.size()), pk.panels.get() + p * g.KH * g.KW * c * kPanel,
          g.KW * c, y + first * oc + j0, oc, std::min(kPanel, oc - j0), false, &finish, count);
    if (padded && g.HP * g.WP * c > static_cast<std::int64_t>(Scratch::kKeptFloats)) {  // an image past 64 MiB
      image.release();
      own.image = -1;
    }
  });
  finish_activation(activation, y, g.n * positions * oc);
}

std::size_t packed_weights_cache_bytes() { return cache().bytes; }

}  // namespace keras::kernels
