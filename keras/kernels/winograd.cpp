#include "keras/kernels/winograd.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/kept_copies.hpp"
#include "keras/kernels/outer_product_tiles.hpp"
#include "keras/kernels/packed_tiles.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/prefetch.hpp"
#include "keras/kernels/row_dispatch.hpp"
#include "keras/kernels/scratch.hpp"
#include "keras/kernels/winograd_f2_transforms.hpp"
#include "keras/kernels/winograd_transforms.hpp"

namespace keras::kernels {
namespace {

using namespace winograd_detail;

constexpr std::int64_t kRun = 24;         // blocks per work item, forward and backward data
constexpr std::int64_t kGradientRun = 32; // blocks per work item, weight gradient (the depth of its sums)

// F(4 x 4, 3 x 3) or F(2 x 2, 3 x 3), as correlate runs it.
struct Algorithm {
  int elements;       // transformed values per block and channel
  std::int64_t side;  // a block's outputs down and across
  void (*input)(const float*, const Plane&, std::int64_t, const float*, float*, float*, std::int64_t);
  void (*output)(const float*, std::int64_t, const Plane&, std::int64_t, const float*, const float*, const float*,
                 bool, float*, float*);
  void (*output_adding)(const float*, std::int64_t, const Plane&, std::int64_t, const float*, const float*,
                        const float*, bool, float*, float*);  // with a residual
  void (*kernel)(const float*, std::int64_t, std::int64_t, float*);  // the forward kernel's transform
};
constexpr Algorithm kF4{kElements, 4, input_transform, output_transform<false>, output_transform<true>,
                        [](const float* k, std::int64_t ic, std::int64_t oc, float* panels) {
                          kernel_transform(k, ic, oc, false, panels);
                        }};
constexpr Algorithm kF2{kF2Elements, 2, f2_input_transform, f2_output_transform<false>, f2_output_transform<true>,
                        f2_kernel_transform};

Plane forward_plane(const ConvArgs& a, const Algorithm& alg = kF4) {
  return {a.n, a.in[0], a.in[1], a.c, a.out[0], a.out[1], a.oc, a.pad_l[0], a.pad_l[1], alg.side};
}

// Fetches, over `steps` calls of prefetch.step(), the rows (lo to hi from each block's top output row,
// within [0, h)) of a tensor [n, h, w, channels] that blocks [first, first + count) read or write: one span,
// as their rows follow each other in memory (up to Prefetch::kLargestImage floats of it).
void fetch_rows(Prefetch& prefetch, const float* t, const Plane& p, std::int64_t first, std::int64_t count,
                std::int64_t h, std::int64_t w, std::int64_t channels, std::int64_t lo, std::int64_t hi,
                std::int64_t steps) {
  if (count <= 0) return prefetch.start(t, 0, steps);
  const BlockAt a = block_at(p, first), b = block_at(p, first + count - 1);
  const std::int64_t begin = a.image * h + std::clamp<std::int64_t>(a.y + lo, 0, h - 1);
  const std::int64_t end = b.image * h + std::clamp<std::int64_t>(b.y + hi, 0, h - 1) + 1;
  prefetch.start(t + begin * w * channels, std::min((end - begin) * w * channels, Prefetch::kLargestImage), steps);
}

// The correlation over the plane (its blocks alg.side outputs across), with the kernel transformed into
// `panels` (alg's kernel transform), + bias and the residual (either may be null), then relu.
void correlate(const float* x, const float* panels, const float* bias, const float* residual, float* y, const Plane& p,
               bool relu, const Algorithm& alg = kF4) {
  // Items of at most kRun blocks, as many for each thread (a small image's inference has fewer blocks
  // than threads x kRun); each element's rows stay kRun * channels apart.
  const std::int64_t blocks = p.blocks(), threads = omp_get_max_threads();
  const std::int64_t per_thread = (blocks + threads * kRun - 1) / (threads * kRun);
  const std::int64_t run = std::max<std::int64_t>(1, (blocks + threads * per_thread - 1) / (threads * per_thread));
  const std::int64_t items = (blocks + run - 1) / run, C = p.ic, O = p.oc, P = padded(O);
#pragma omp parallel num_threads(static_cast<int>(std::min(items, threads)))
  {
    thread_local Scratch scratch;
    const int elements = alg.elements;
    float* v = scratch.aligned_floats(elements * kRun * (C + O) + transform_room(C, O) + std::max(C, O));
    float* m = v + elements * kRun * C;
    float* tmp = m + elements * kRun * O;
    float* zeros = tmp + transform_room(C, O);
    std::fill(zeros, zeros + std::max(C, O), 0.0f);
    const float* shift = bias ? bias : zeros;
    // The transforms wait on memory, the products do not: while these run, the outputs the item will write
    // and the inputs of the thread's next item come into the cache. Not past its last item: the next
    // thread's inputs are lines that thread wrote, and pulling them across cores slowed one image's
    // layers by 5-20% (2 threads of a Zen 5 EPYC VM, 16 -> 16 channels over 32 x 32 and 32 -> 32 over 16 x 16).
    Prefetch next_input, outputs;
    const ThreadShare mine = thread_share(items);
    for (std::int64_t item = mine.begin; item < mine.end; ++item) {
      const std::int64_t first = item * run, count = std::min(run, blocks - first);
      for (std::int64_t b = 0; b < count; ++b) alg.input(x, p, first + b, zeros, tmp, v + b * C, kRun * C);
      const std::int64_t next = item + 1 < mine.end ? std::min(run, blocks - first - count) : 0;
      fetch_rows(next_input, x, p, first + count, next, p.ih, p.iw, C, -p.top, p.side + 1 - p.top, elements);
      fetch_rows(outputs, y, p, first, count, p.oh, p.ow, O, 0, p.side - 1, elements);
      for (int e = 0; e < elements; ++e) {
        next_input.step();
        outputs.step();
        packed_tiles::multiply(v + e * kRun * C, C, count, panels + e * C * P, C, O, m + e * kRun * O, O);
      }
      const auto output = residual ? alg.output_adding : alg.output;
      for (std::int64_t b = 0; b < count; ++b)
        output(m + b * O, kRun * O, p, first + b, shift, residual, zeros, relu, tmp, y);
    }
    scratch.release();
  }
}

float* kernel_panels(std::int64_t ic, std::int64_t oc, int elements = kElements) {
  thread_local Scratch scratch;
  return scratch.aligned_floats(elements * ic * padded(oc));
}


// Inference's kernel transforms, kept under (kernel, version) as packed_weights.cpp keeps its packs: 4 x
// the kernel's floats each (F(2 x 2): 16 / 9), at most 512 MiB of them per thread (VGG16's 3 x 3 layers
// take 235 MB).
struct KeptPanels {
  std::uint64_t version = 0;
  std::int64_t ic = 0, oc = 0, side = 0;
  AlignedFloats panels;
};

const float* kept_panels(const float* kernel, std::uint64_t version, std::int64_t ic, std::int64_t oc,
                         const Algorithm& alg) {
  thread_local KeptCopies<KeptPanels> kept(std::size_t{512} << 20);
  const std::size_t floats = static_cast<std::size_t>(alg.elements * ic * padded(oc));
  return kept
      .get(
          kernel,
          [&](const KeptPanels& e) { return e.version == version && e.ic == ic && e.oc == oc && e.side == alg.side; },
          floats * sizeof(float),
          [&] {
            KeptPanels e{.version = version, .ic = ic, .oc = oc, .side = alg.side, .panels = aligned_floats(floats)};
            alg.kernel(kernel, ic, oc, e.panels.get());
            return e;
          })
      .panels.get();
}

}  // namespace

bool own_winograd_fits(const ConvArgs& a, bool inference) {
  // 2 threads of a Zen 4, batch 128, alternating runs of 10 calls (forward, backward data, weights). Held to
  // AVX2, against the direct kernels (packed_conv forward, oneDNN's backward data, conv_weight_gradient):
  // 32 -> 32 channels over 16 x 16 1.9-2.4x, 1.7-2.2x, 2.0-2.8x; 64 -> 64 over 8 x 8 2.1-2.7x, 1.7-2.2x,
  // 1.9-2.3x; 16 -> 16 over 32 x 32 1.3-1.6x, 1.0-1.5x, 1.3-2.0x. On AVX-512, against oneDNN's Winograd
  // kernels (which this replaced) at 32 and 64 channels and its direct ones at 16: 1.0-1.5x, 1.0-1.5x,
  // 1.1-1.8x. Below 16 channels the products' depth (the input channels) is too short to pay.
  if (!own_kernels() || cpu_level() < CpuLevel::avx2 || a.rank != 2 || a.groups != 1 || a.c < 16 || a.oc < 16)
    return false;
  for (int i = 0; i < 2; ++i)
    if (a.k[i] != 3 || a.stride[i] != 1 || a.dilation[i] != 1 || a.pad_l[i] < 0 || a.pad_l[i] > 1 || a.pad_r[i] < 0 ||
        a.pad_r[i] > 1)
      return false;
  const std::int64_t blocks = a.n * ((a.out[0] + 3) / 4) * ((a.out[1] + 3) / 4), threads = omp_get_max_threads();
  if (blocks >= 2 * kRun * threads) return true;
  // Inference with the transform kept, one image, against oneDNN's direct kernels (1 and 2 threads, AVX2
  // and AVX-512): 64 -> 64 over 8 x 8 (4 blocks) 1.4-2.1x faster, 32 -> 32 over 16 x 16 1.6-2.0x, 128 ->
  // 128 over 8 x 8 1.5-2.9x, 256 -> 256 over 14 x 14 1.2-2.4x, 16 -> 16 over 32 x 32 0.9-1.2x; but 64 ->
  // 64 over 4 x 4 (one block) 0.6-1.1x, and 512 -> 512 over 7 x 7 (a 38 MB transform for 4 blocks) 0.4-1.1x.
  constexpr std::int64_t kStreamedFloats = std::int64_t{4} << 20;  // 16 MiB
  return inference && blocks >= 2 * threads && kElements * a.c * padded(a.oc) <= kStreamedFloats;
}

bool winograd_f2_fits(const ConvArgs& a) {
  // Fewer than 8 F(4 x 4) blocks for each thread (one small image) stream the transformed kernel for little
  // work: F(2 x 2)'s is 16 / 9 of the kernel's size where F(4 x 4)'s is 4 x, for 2.25 x the multiply-adds.
  // ResNet-20's last 4 layers (64 -> 64 channels over 8 x 8: 4 blocks), one image, AVX-512 on a Zen 5,
  // F(2 x 2) against F(4 x 4): 63-67 against 84-102 us on 2 threads, 72-75 against 78 on one; its middle
  // ones (32 -> 32 over 16 x 16: 16 blocks) 0.8x on 2 threads. Held to AVX2, whose products do not outrun
  // the stream, the last 4 took 118 against 86 us on one thread and 89 against 90 on 2: AVX-512's only.
  const std::int64_t blocks = forward_plane(a).blocks();
  return cpu_level() == CpuLevel::avx512 && blocks < 8 * omp_get_max_threads();
}

void winograd_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a, bool relu) {
  float* panels = kernel_panels(a.c, a.oc);
  kernel_transform(kernel, a.c, a.oc, false, panels);
  correlate(x, panels, bias, nullptr, y, forward_plane(a), relu);
}

void winograd_inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                        const float* residual, float* y, const ConvArgs& a, bool relu) {
  const Algorithm& alg = winograd_f2_fits(a) ? kF2 : kF4;
  if (version == 0) {
    float* panels = kernel_panels(a.c, a.oc, alg.elements);
    alg.kernel(kernel, a.c, a.oc, panels);
    return correlate(x, panels, bias, residual, y, forward_plane(a, alg), relu, alg);
  }
  correlate(x, kept_panels(kernel, version, a.c, a.oc, alg), bias, residual, y, forward_plane(a, alg), relu, alg);
}

void winograd_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
  // dx[h][w][c] = sum of dy[h - (2 - top) + i][w - (2 - left) + j][o] * kernel[2 - i][2 - j][c][o].
  float* panels = kernel_panels(a.oc, a.c);
  kernel_transform(kernel, a.oc, a.c, true, panels);
  const Plane p{a.n, a.out[0], a.out[1], a.oc, a.in[0], a.in[1], a.c, 2 - a.pad_l[0], 2 - a.pad_l[1]};
  correlate(dy, panels, nullptr, nullptr, dx, p, false);
}

void winograd_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  // du[e] = sum over blocks of V[e]ᵀ G[e] (V: the inputs' transform, G: the output gradients'), per thread.
  const Plane p = forward_plane(a);
  const std::int64_t blocks = p.blocks(), items = (blocks + kGradientRun - 1) / kGradientRun, C = p.ic, O = p.oc;
  const std::int64_t size = kElements * C * O;
  const int threads = omp_get_max_threads();
  std::vector<float> partial(static_cast<std::size_t>(threads) * static_cast<std::size_t>(size + O), 0.0f);
  const bool wide = cpu_level() == CpuLevel::avx512;  // the AVX-512 outer-product tiles, else AVX2's
  std::int32_t lanes[kPanel];  // the last 16 output channels' that exist, when O is not a multiple of 16
  for (std::int64_t j = 0; j < kPanel; ++j) lanes[j] = j < O % kPanel ? -1 : 0;
  int team = 1;
#pragma omp parallel num_threads(threads)
  {
#pragma omp single
    team = omp_get_num_threads();
    float* du = partial.data() + omp_get_thread_num() * (size + O);
    float* db = du + size;  // summed whether or not the caller wants it (a null db in the loop: masked loads)
    thread_local Scratch scratch;
    float* v = scratch.aligned_floats(kElements * kGradientRun * (C + O) + transform_room(C, O) + std::max(C, O));
    float* g = v + kElements * kGradientRun * C;
    float* tmp = g + kElements * kGradientRun * O;
    float* zeros = tmp + transform_room(C, O);
    std::fill(zeros, zeros + std::max(C, O), 0.0f);
    Prefetch next_input, next_gradient;  // as in correlate
    const ThreadShare mine = thread_share(items);
    for (std::int64_t item = mine.begin; item < mine.end; ++item) {
      const std::int64_t first = item * kGradientRun, count = std::min(kGradientRun, blocks - first);
      for (std::int64_t b = 0; b < count; ++b) {
        input_transform(x, p, first + b, zeros, tmp, v + b * C, kGradientRun * C);
        gradient_transform(dy, p, first + b, zeros, tmp, g + b * O, kGradientRun * O, db);
      }
      const std::int64_t next = item + 1 < mine.end ? std::min(kGradientRun, blocks - first - count) : 0;
      fetch_rows(next_input, x, p, first + count, next, p.ih, p.iw, C, -p.top, 5 - p.top, kElements);
      fetch_rows(next_gradient, dy, p, first + count, next, p.oh, p.ow, O, 0, 3, kElements);
      for (int e = 0; e < kElements; ++e) {
        next_input.step();
        next_gradient.step();
        const float* ve = v + e * kGradientRun * C;
        const float* ge = g + e * kGradientRun * O;
        float* due = du + e * C * O;
        if (wide) {  // 12 x 32 tiles
          for (std::int64_t c0 = 0; c0 < C; c0 += 12)
            for (std::int64_t o0 = 0; o0 < O; o0 += 2 * kPanel) {
              __mmask16 mask[2];
              for (int h = 0; h < 2; ++h)
                mask[h] = static_cast<__mmask16>((std::uint32_t{1} << std::clamp<std::int64_t>(O - o0 - h * kPanel, 0, kPanel)) - 1);
              const bool two = O - o0 > kPanel;
              with_rows<12>(std::min<std::int64_t>(12, C - c0), [&](auto r) {
                constexpr int rows = decltype(r)::value;
                if (two) outer_product_tiles::tile512<rows, 2>(ve + c0, 0, C, ge + o0, O, 1, count, due + c0 * O + o0, mask);
                else outer_product_tiles::tile512<rows, 1>(ve + c0, 0, C, ge + o0, O, 1, count, due + c0 * O + o0, mask);
              });
            }
          continue;
        }
        for (std::int64_t c0 = 0; c0 < C; c0 += 6)
          for (std::int64_t o0 = 0; o0 < O; o0 += kPanel) {
            const bool full = O - o0 >= kPanel;
            with_rows<6>(std::min<std::int64_t>(6, C - c0), [&](auto r) {
              constexpr int rows = decltype(r)::value;
              if (full) outer_product_tiles::tile<rows, false>(ve + c0, 0, C, ge + o0, O, 1, count, due + c0 * O + o0, lanes);
              else outer_product_tiles::tile<rows, true>(ve + c0, 0, C, ge + o0, O, 1, count, due + c0 * O + o0, lanes);
            });
          }
      }
    }
    scratch.release();
  }
  float* total = partial.data();
  for (int t = 1; t < team; ++t) {
    const float* q = partial.data() + t * (size + O);
    for (std::int64_t i = 0; i < size + O; ++i) total[i] += q[i];
  }
  kernel_gradient_transform(total, C, O, dkernel);
  if (dbias) std::copy(total + size, total + size + O, dbias);
}

}  // namespace keras::kernels
