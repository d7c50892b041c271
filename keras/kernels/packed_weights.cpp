#include "keras/kernels/packed_weights.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "keras/kernels/conv_geometry.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/eltwise.hpp"
#include "keras/kernels/kept_copies.hpp"
#include "keras/kernels/packed_tiles.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/prefetch.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

using packed_tiles::Finish;
using packed_tiles::kPanel;  // columns of B per panel
using packed_tiles::TileArgs;
constexpr std::int64_t kDepth = 256;  // steps of k per pass of a matrix product: a panel's 16 KiB stay in L1
constexpr std::int64_t kChunk = 72;   // rows of A per work item of a matrix product: 72 x 256 floats stay in L2
constexpr std::size_t kCacheLimit = std::size_t{256} << 20;
constexpr std::int64_t kLargestPack = std::int64_t{16} << 20;  // floats; larger weights stay with oneDNN
// Multiply-adds below which a product runs on the calling thread: waking the pool costs about as much
// (an LSTM step of one sequence, 128 units, is 65 Ki).
constexpr std::int64_t kSerialWork = std::int64_t{1} << 18;

// B [k, n] as panels [n / 16][k][16], the last panel's missing columns zero.
struct Packed {
  std::uint64_t version = 0;
  std::int64_t k = 0, n = 0;
  bool trans_b = false;
  AlignedFloats panels;
};

KeptCopies<Packed>& cache() {
  thread_local KeptCopies<Packed> c(kCacheLimit);
  return c;
}

std::int64_t panel_count(std::int64_t n) { return (n + kPanel - 1) / kPanel; }

void pack(const float* b, std::int64_t k, std::int64_t n, bool trans_b, float* out) {
  parallel_rows(panel_count(n), k * kPanel, [&](std::int64_t p) {
    packed_tiles::pack_panel(b, trans_b ? k : n, k, n, p * kPanel, trans_b, out + p * k * kPanel);
  });
}

// The pack of B [k, n] (stored as [n, k] when trans_b) under (b, version), made when missing or stale.
const Packed& packed(const float* b, std::uint64_t version, std::int64_t k, std::int64_t n, bool trans_b) {
  const std::size_t bytes = sizeof(float) * static_cast<std::size_t>(panel_count(n) * k * kPanel);
  return cache().get(
      b, [&](const Packed& e) { return e.version == version && e.k == k && e.n == n && e.trans_b == trans_b; }, bytes,
      [&] {
        Packed e{.version = version, .k = k, .n = n, .trans_b = trans_b, .panels = aligned_floats(bytes / sizeof(float))};
        pack(b, k, n, trans_b, e.panels.get());
        return e;
      });
}

// Activations the tiles do not finish with run over the output afterwards.
void finish_activation(Eltwise f, float* y, std::int64_t size) {
  if (f != Eltwise::linear && f != Eltwise::relu) eltwise_forward(f, 1.0f, 0.0f, y, y, size);
}

}  // namespace

bool packed_matmul_fits(const MatmulArgs& args) {
  // AVX-512: oneDNN's kernels there are level with or ahead of our tiles once A has more rows than B's
  // packing costs to redo (bench/kernel_shapes, 2 threads: 1.1-2.5x oneDNN's speed at 1-32 rows, 0.8-1.0x at
  // 128-4096).
  if (cpu_level() == CpuLevel::avx512 && args.m > 64) return false;
  return own_kernels() && cpu_level() >= CpuLevel::avx2 && !args.trans_a && !args.accumulate && args.k > 0 &&
         args.k * panel_count(args.n) * kPanel <= kLargestPack;
}

namespace {

// Columns [j_begin, j_end) of C (j_begin on a panel's edge) on the pool, or on the calling thread when
// `serial`.
void packed_product(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                    std::int64_t lda, std::int64_t j_begin, std::int64_t j_end, bool serial) {
  const std::int64_t m = args.m, n = args.n, k = args.k, stride = lda > 0 ? lda : k;
  if (m == 0 || j_end <= j_begin) return;
  const Packed& pb = packed(b, version, k, n, args.trans_b);
  const std::int64_t columns = packed_tiles::tile_columns(), groups = (j_end - j_begin + columns - 1) / columns;
  const std::int64_t chunks = (m + kChunk - 1) / kChunk;
  const std::int64_t no_offset = 0;
  // Work items chunk-major: consecutive items of a thread share their rows of A.
  const std::int64_t grain = serial || m * n * k < kSerialWork ? 0 : k * columns * std::min(m, kChunk);  // 0: serial
  parallel_rows(chunks * groups, grain, [&](std::int64_t item) {
    const std::int64_t i0 = item / groups * kChunk, j0 = j_begin + item % groups * columns;
    const std::int64_t rows = std::min(m, i0 + kChunk) - i0, width = std::min(columns, j_end - j0);
    for (std::int64_t k0 = 0; k0 < k; k0 += kDepth) {
      const std::int64_t depth = std::min(kDepth, k - k0);
      const Finish finish{.shift = args.bias ? args.bias + j0 : nullptr, .relu = args.activation == Eltwise::relu};
      const float* next = a + i0 * stride + k0;
      packed_tiles::tiles([&] { return std::exchange(next, next + stride); },
                          TileArgs{.taps = &no_offset, .tap_count = 1, .panel = pb.panels.get() + (j0 / kPanel * k + k0) * kPanel,
                                   .next_panel = k * kPanel, .depth = depth, .c = c + i0 * n + j0, .ldc = n, .width = width,
                                   .add_to_c = k0 > 0, .finish = k0 + depth == k ? &finish : nullptr},
                          rows);
    }
  });
}

}  // namespace

void packed_matmul(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                   std::int64_t lda) {
  if (args.n == 0) return;
  packed_product(a, b, version, c, args, lda, 0, args.n, false);
  finish_activation(args.activation, c, args.m * args.n);
}

void packed_matmul_columns(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                           std::int64_t lda, std::int64_t j_begin, std::int64_t j_end) {
  if (j_begin % kPanel != 0 || args.activation != Eltwise::linear)
    throw std::invalid_argument("packed_matmul_columns: columns from a multiple of 16, linear activation only");
  packed_product(a, b, version, c, args, lda, j_begin, std::min(j_end, args.n), true);
}

bool packed_conv_fits(const ConvArgs& a) {
  if (!own_kernels() || cpu_level() < CpuLevel::avx2 || a.groups != 1 || a.rank > 2 || a.c == 0) return false;
  // Where our tiles beat oneDNN's (forward, 2 threads, best of 30): a window row of at least 32 floats, and
  // not a 1 x 1 kernel (a plain product, where oneDNN's gemm kernels are 1.25-3x faster). 3 x 3 over 32-256
  // channels: 1.1-1.55x oneDNN's speed; over 1-8 channels (the first layer of an image model): 0.46-0.8x.
  const std::int64_t row = (a.rank == 2 ? a.k[1] : a.k[0]) * a.c, taps = a.k[0] * (a.rank == 2 ? a.k[1] : 1);
  if (row < 32 || taps == 1) return false;
  // AVX-512: oneDNN's brgconv kernels run these 0.6-0.95x faster than our tiles, except over few output
  // positions (one small image: 8 x 8 to 10 x 10 at 32-64 channels, 1.2-1.7x on 2 threads of a Zen 5), where
  // they split poorly among threads. On one thread nothing is split, and oneDNN's are ahead there too (one
  // 8 x 8 image, 64 to 64 channels, Zen 4: 127 against 111 GFLOP/s).
  if (cpu_level() == CpuLevel::avx512 && (a.n * a.out[0] * a.out[1] * a.out[2] > 128 || omp_get_max_threads() == 1))
    return false;
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
  const std::int64_t columns = packed_tiles::tile_columns(), groups = (oc + columns - 1) / columns, span = 96;
  const std::int64_t runs = (positions + span - 1) / span, items = g.n * runs * groups;
  const std::int64_t depth = g.KH * g.KW * c;  // the pack's rows
  // Each thread's items in one range, so that it fetches the next image only when that is its own: pulling
  // the next thread's across cores costs more than it saves.
  parallel_row_ranges(items, std::min(span, positions) * depth * columns, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t copied = -1;  // the image this thread's items read last (its padded copy, when padded)
    Prefetch next_image;
    thread_local Scratch image;
    float* copy = padded ? image.floats(g.HP * g.WP * c) : nullptr;
    for (std::int64_t item = begin; item < end; ++item) {
      const std::int64_t b = item / (runs * groups), q0 = item / groups % runs * span, j0 = item % groups * columns;
      const std::int64_t count = std::min(span, positions - q0);
      if (copied != b) {
        if (padded) copy_padded_image(x, b, g, copy);
        copied = b;
        if ((b + 1) * runs * groups < end && image_floats <= Prefetch::kLargestImage)
          next_image.start(x + (b + 1) * image_floats, image_floats, positions * groups);
      }
      const float* src = padded ? copy : x + b * image_floats;
      const std::int64_t down = g.SH * row, across = g.SW * c;  // from a window to the next row's, column's
      std::int64_t ow = q0 % g.OW;
      const float* left_end = src + q0 / g.OW * down;  // the first window of the current output row
      const float* corner = left_end + ow * across;
      auto window = [&] {  // the corner of the next output position's window
        const float* at = corner;
        corner += across;
        if (++ow == g.OW) ow = 0, left_end += down, corner = left_end;
        next_image.step();
        return at;
      };
      const std::int64_t first = b * positions + q0;  // in y's and the residual's rows
      const Finish finish{.scale = scale ? scale + j0 : nullptr, .shift = shift ? shift + j0 : nullptr,
                          .residual = residual ? residual + first * oc + j0 : nullptr, .residual_stride = oc,
                          .relu = activation == Eltwise::relu};
      packed_tiles::tiles(window,
                          TileArgs{.taps = taps.data(), .tap_count = static_cast<std::int64_t>(taps.size()),
                                   .panel = pk.panels.get() + j0 / kPanel * depth * kPanel, .next_panel = depth * kPanel,
                                   .depth = g.KW * c, .c = y + first * oc + j0, .ldc = oc,
                                   .width = std::min(columns, oc - j0), .add_to_c = false, .finish = &finish},
                          count);
    }
    if (padded) image.release();  // past 64 MiB (an image that large), given back after the call
  });
  finish_activation(activation, y, g.n * positions * oc);
}

std::size_t packed_weights_cache_bytes() { return cache().bytes(); }

}  // namespace keras::kernels
