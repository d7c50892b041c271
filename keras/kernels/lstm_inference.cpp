#include "keras/kernels/lstm_inference.hpp"

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/kept_copies.hpp"
#include "keras/kernels/packed_tiles.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/scratch.hpp"
#include "keras/kernels/vector_math.hpp"

namespace keras::kernels {
namespace {

using vector_math::rational_sigmoid16;  // (keras/kernels/vector_math.hpp)
using vector_math::rational_sigmoid8;
using vector_math::rational_tanh16;
using vector_math::rational_tanh8;
using vector_math::sum8;

__attribute__((target("avx512f"), always_inline)) inline __m512 sum16(const float* a, const float* b, std::int64_t at) {
  return _mm512_add_ps(_mm512_loadu_ps(a + at), _mm512_loadu_ps(b + at));
}

// One row's units [j, j + 8) (or 16) of a step: z = gx + g (gates i, f, c, o of `units` each), then
// c = sigmoid(f) c + sigmoid(i) tanh(cand), h = sigmoid(o) tanh(c) into y, and into h unless it is null
// (vector_math's rational forms).
__attribute__((target("avx2,fma"), always_inline)) inline void units8(const float* zx, const float* zh,
                                                                       std::int64_t units, std::int64_t j, float* c,
                                                                       float* h, float* y) {
  const __m256 i = rational_sigmoid8(sum8(zx, zh, 0 * units + j));
  const __m256 f = rational_sigmoid8(sum8(zx, zh, 1 * units + j));
  const __m256 cand = rational_tanh8(sum8(zx, zh, 2 * units + j));
  const __m256 o = rational_sigmoid8(sum8(zx, zh, 3 * units + j));
  const __m256 cell = _mm256_fmadd_ps(f, _mm256_loadu_ps(c + j), _mm256_mul_ps(i, cand));
  const __m256 out = _mm256_mul_ps(o, rational_tanh8(cell));
  _mm256_storeu_ps(c + j, cell);
  if (h) _mm256_storeu_ps(h + j, out);
  _mm256_storeu_ps(y + j, out);
}

__attribute__((target("avx512f"), always_inline)) inline void units16(const float* zx, const float* zh,
                                                                      std::int64_t units, std::int64_t j, float* c,
                                                                      float* h, float* y) {
  const __m512 i = rational_sigmoid16(sum16(zx, zh, 0 * units + j));
  const __m512 f = rational_sigmoid16(sum16(zx, zh, 1 * units + j));
  const __m512 cand = rational_tanh16(sum16(zx, zh, 2 * units + j));
  const __m512 o = rational_sigmoid16(sum16(zx, zh, 3 * units + j));
  const __m512 cell = _mm512_fmadd_ps(f, _mm512_loadu_ps(c + j), _mm512_mul_ps(i, cand));
  const __m512 out = _mm512_mul_ps(o, rational_tanh16(cell));
  _mm512_storeu_ps(c + j, cell);
  if (h) _mm512_storeu_ps(h + j, out);
  _mm512_storeu_ps(y + j, out);
}

// One row's units [u0, u1) (multiples of 8), 8 at a time; on AVX-512 16 at a time, the last 8 as AVX2 runs
// them (8 at a time, the gates took 17% of LSTM(128)'s predict at batch 32 there).
__attribute__((target("avx2,fma"))) void row8(const float* zx, const float* zh, std::int64_t units, std::int64_t u0,
                                              std::int64_t u1, float* c, float* h, float* y) {
  for (std::int64_t j = u0; j < u1; j += 8) units8(zx, zh, units, j, c, h, y);
}

__attribute__((target("avx512f,avx2,fma"))) void row16(const float* zx, const float* zh, std::int64_t units,
                                                       std::int64_t u0, std::int64_t u1, float* c, float* h, float* y) {
  std::int64_t j = u0;
  for (; j + 16 <= u1; j += 16) units16(zx, zh, units, j, c, h, y);
  if (j < u1) units8(zx, zh, units, j, c, h, y);
}

// One step for `rows` sequences over units [u0, u1): row8 or row16 for each row.
void gates(std::int64_t rows, std::int64_t units, std::int64_t u0, std::int64_t u1, const float* gx,
           std::int64_t gx_stride, const float* g, float* h, std::int64_t h_stride, float* c, float* y,
           std::int64_t y_stride) {
  const auto row = cpu_level() == CpuLevel::avx512 ? row16 : row8;
  for (std::int64_t n = 0; n < rows; ++n)
    row(gx + n * gx_stride, g + n * 4 * units, units, u0, u1, c + n * units, h ? h + n * h_stride : nullptr,
        y + n * y_stride);
}

// Floats of input projection made for every step before the loop (2 MiB); beyond, stacked_runs.
constexpr std::int64_t kWholeProjection = std::int64_t{512} << 10;
// Multiply-adds of a step's recurrent product from which fewer sequences than threads split it by units.
constexpr std::int64_t kSplitUnitsWork = std::int64_t{1} << 15;

// Items [begin, begin + count) of `team` threads' even shares of n.
std::pair<std::int64_t, std::int64_t> share(std::int64_t n, std::int64_t team, std::int64_t thread) {
  const std::int64_t each = (n + team - 1) / team, begin = std::min(n, thread * each);
  return {begin, std::min(n, begin + each) - begin};
}

// Threads for N sequences whose steps take `step_work` multiply-adds each: one when waking the pool costs
// about as much, else one per sequence at most.
int sequence_threads(std::int64_t N, std::int64_t step_work) {
  return step_work < 8 * kParallelGrain ? 1 : static_cast<int>(std::min<std::int64_t>(N, omp_get_max_threads()));
}

// Fewer sequences than threads (one sequence: a model's latency): the threads split the units, 16 at a
// time, and each computes its units' four gates of every step (its columns of R, which then stay in its
// core's cache: 128 of 256 KiB for 128 units), one barrier per step. A step reads the state from y's
// previous step, so no thread writes what another still reads; h is written after the last step.
void split_units(std::int64_t N, std::int64_t T, std::int64_t U, const float* gx, float* g, const float* r,
                 std::uint64_t r_version, float* y, float* h, float* c) {
  const std::int64_t G = 4 * U, blocks = U / 16;
  const int threads = static_cast<int>(std::min<std::int64_t>(blocks, omp_get_max_threads()));
#pragma omp parallel num_threads(threads)
  {
    const auto [first_block, own_blocks] = share(blocks, omp_get_num_threads(), omp_get_thread_num());
    const std::int64_t u0 = first_block * 16, u1 = u0 + own_blocks * 16;
    for (std::int64_t t = 0; t < T; ++t) {
      const float* state = t == 0 ? h : y + (t - 1) * U;
      const MatmulArgs step{.m = N, .n = G, .k = U};
      if (u1 > u0) {
        for (std::int64_t q = 0; q < 4; ++q)
          packed_matmul_columns(state, r, r_version, g, step, t == 0 ? U : T * U, q * U + u0, q * U + u1);
        gates(N, U, u0, u1, gx + t * G, T * G, g, nullptr, 0, c, y + t * U, T * U);
      }
#pragma omp barrier
    }
  }
  for (std::int64_t n = 0; n < N; ++n) std::copy_n(y + (n * T + T - 1) * U, U, h + n * U);
}

// One step of `rows` sequences from row n0: the recurrent product into g, then the gates (zx: the step's
// input projection of row n0, its rows zx_stride apart).
void run_step(std::int64_t n0, std::int64_t rows, std::int64_t T, std::int64_t U, std::int64_t t, const float* zx,
              std::int64_t zx_stride, const float* r, std::uint64_t r_version, float* g, float* y, float* h,
              float* c) {
  const std::int64_t G = 4 * U;
  packed_matmul_columns(h + n0 * U, r, r_version, g + n0 * G, {.m = rows, .n = G, .k = U}, 0, 0, G);
  gates(rows, U, 0, U, zx, zx_stride, g + n0 * G, h + n0 * U, U, c + n0 * U, y + (n0 * T + t) * U, T * U);
}

// Every step's input projection made before (gx [N, T, 4U]): each thread runs the whole time loop for its
// share of the sequences, with no barrier per step (under load, two per step cost more than they saved).
void own_sequences(std::int64_t N, std::int64_t T, std::int64_t U, const float* gx, float* g, const float* r,
                   std::uint64_t r_version, float* y, float* h, float* c) {
  const std::int64_t G = 4 * U;
#pragma omp parallel num_threads(sequence_threads(N, N * G * U))
  {
    const auto [n0, rows] = share(N, omp_get_num_threads(), omp_get_thread_num());
    for (std::int64_t t = 0; rows > 0 && t < T; ++t)
      run_step(n0, rows, T, U, t, gx + (n0 * T + t) * G, T * G, r, r_version, g, y, h, c);
  }
}

// [W; R] stacked into one (I + U) x 4U matrix, packed in 16-column panels (packed_tiles::pack_panel), kept
// per thread under (w, w_version, r, r_version).
struct StackedPack {
  const float* r = nullptr;
  std::uint64_t w_version = 0, r_version = 0;
  std::int64_t input = 0, units = 0;
  AlignedFloats panels;
};

const float* stacked_pack(const float* w, std::uint64_t w_version, const float* r, std::uint64_t r_version,
                          std::int64_t I, std::int64_t U) {
  thread_local KeptCopies<StackedPack> cache(std::size_t{256} << 20);
  const std::int64_t G = 4 * U, K = I + U, panels = (G + packed_tiles::kPanel - 1) / packed_tiles::kPanel;
  const std::size_t floats = static_cast<std::size_t>(panels * K * packed_tiles::kPanel);
  auto current = [&](const StackedPack& e) {
    return e.r == r && e.w_version == w_version && e.r_version == r_version && e.input == I && e.units == U;
  };
  return cache
      .get(w, current, floats * sizeof(float),
           [&] {
             StackedPack e{.r = r, .w_version = w_version, .r_version = r_version, .input = I, .units = U,
                           .panels = aligned_floats(floats)};
             for (std::int64_t p = 0; p < panels; ++p) {
               float* out = e.panels.get() + p * K * packed_tiles::kPanel;
               packed_tiles::pack_panel(w, G, I, G, p * packed_tiles::kPanel, false, out);
               packed_tiles::pack_panel(r, G, U, G, p * packed_tiles::kPanel, false, out + I * packed_tiles::kPanel);
             }
             return e;
           })
      .panels.get();
}

// A large batch: the sequences in runs of up to one register tile's rows, which the threads take one at a
// time; a run's steps each multiply [x_t h] by the stacked [W; R] (one product over I + U, its rows and
// the gate sums staying in L1) and then apply the gates, writing h where the next step's product reads it.
void stacked_runs(std::int64_t N, std::int64_t T, std::int64_t I, std::int64_t U, const float* x, const float* w,
                  std::uint64_t w_version, const float* b, const float* r, std::uint64_t r_version, float* y,
                  float* h, float* c) {
  const std::int64_t G = 4 * U, K = I + U;
  const int threads = sequence_threads(N, N * G * K);
  // The same number of runs for each thread, of at most a tile's rows each and as even as can be (32 rows on
  // AVX2's 6-row tiles: 6, 6, 5, 5, 5, 5 rather than 6, 6, 6, 6, 6, 2; on AVX-512's 12-row tiles and 2 threads:
  // 8, 8, 8, 8 rather than 12, 12, 8).
  const std::int64_t tile = packed_tiles::tile_rows(), count = threads * ((N + threads * tile - 1) / (threads * tile));
  std::vector<std::pair<std::int64_t, std::int64_t>> runs;  // first row, rows
  for (std::int64_t i = 0, n = 0; i < count && n < N; ++i) {
    const std::int64_t rows = N / count + (i < N % count ? 1 : 0);
    runs.emplace_back(n, rows);
    n += rows;
  }
  const std::int64_t most = runs.front().second;  // rows of the largest run
  thread_local Scratch no_bias;
  const float* bias = b;
  if (!bias) {
    float* zeros = no_bias.floats(G);
    std::fill(zeros, zeros + G, 0.0f);
    bias = zeros;
  }
#pragma omp parallel num_threads(threads)
  {
    const float* pack = stacked_pack(w, w_version, r, r_version, I, U);
    thread_local Scratch rows_buffer, sums_buffer;
    float* xh = rows_buffer.floats(2 * most * K);  // [2][most][I + U]: this step's rows and the next's
    float* g = sums_buffer.floats(most * G);
#pragma omp for schedule(dynamic, 1)
    for (std::size_t run = 0; run < runs.size(); ++run) {
      const auto [n0, rows] = runs[run];
      for (std::int64_t n = 0; n < rows; ++n) std::copy_n(h + (n0 + n) * U, U, xh + n * K + I);
      for (std::int64_t t = 0; t < T; ++t) {
        float* now = xh + t % 2 * most * K;
        float* next = xh + (t + 1) % 2 * most * K;
        for (std::int64_t n = 0; n < rows; ++n) std::copy_n(x + ((n0 + n) * T + t) * I, I, now + n * K);
        packed_tiles::multiply(now, K, rows, pack, K, G, g, G);
        gates(rows, U, 0, U, bias, 0, g, next + I, K, c + n0 * U, y + (n0 * T + t) * U, T * U);
      }
      for (std::int64_t n = 0; n < rows; ++n) std::copy_n(y + ((n0 + n) * T + T - 1) * U, U, h + (n0 + n) * U);
    }
  }
}

}  // namespace

bool lstm_inference_fits(const RnnArgs& a) {
  return a.cell == RnnCell::lstm && a.units % 8 == 0 && a.units > 0 && a.input > 0 &&
         packed_matmul_fits({.m = 1, .n = 4 * a.units, .k = a.input}) &&
         packed_matmul_fits({.m = 1, .n = 4 * a.units, .k = a.units});
}

void lstm_inference(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w,
                    std::uint64_t w_version, const float* r, std::uint64_t r_version, const float* b, float* y,
                    float* h, float* c) {
  const std::int64_t N = a.batch, T = a.time, U = a.units, G = 4 * U, I = a.input;
  const std::size_t state = static_cast<std::size_t>(N * U);
  if (h0) std::copy(h0, h0 + state, h); else std::fill(h, h + state, 0.0f);
  if (c0) std::copy(c0, c0 + state, c); else std::fill(c, c + state, 0.0f);
  if (N * T == 0) return;
  if (T * N * G > kWholeProjection) return stacked_runs(N, T, I, U, x, w, w_version, b, r, r_version, y, h, c);
  // Short batches (one sequence's projection is 200 KiB): the input projection gx = x W + b (gates i, f, c,
  // o) of every step as one product before the loop, [N, T, 4U]. The buffers stay with the thread from call
  // to call.
  thread_local Scratch gx_buffer;
  float* gx = gx_buffer.floats(T * N * G);
  packed_matmul(x, w, w_version, gx, {.m = N * T, .n = G, .k = I, .bias = b});
  lstm_recurrence(a, gx, r, r_version, y, h, c);
  gx_buffer.release();
}

void lstm_recurrence(const RnnArgs& a, const float* gx, const float* r, std::uint64_t r_version, float* y, float* h,
                     float* c) {
  const std::int64_t N = a.batch, T = a.time, U = a.units;
  thread_local Scratch g_buffer;
  float* g = g_buffer.floats(N * 4 * U);
  if (N < omp_get_max_threads() && U % 16 == 0 && N * 4 * U * U >= kSplitUnitsWork)
    split_units(N, T, U, gx, g, r, r_version, y, h, c);
  else
    own_sequences(N, T, U, gx, g, r, r_version, y, h, c);
  g_buffer.release();
}

}  // namespace keras::kernels
