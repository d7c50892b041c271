#include "keras/kernels/lstm_inference.hpp"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"
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
           std::int64_t gx_stride, const float* g, float* h, float* c, float* y, std::int64_t y_stride) {
  const auto row = cpu_level() == CpuLevel::avx512 ? row16 : row8;
  for (std::int64_t n = 0; n < rows; ++n)
    row(gx + n * gx_stride, g + n * 4 * units, units, u0, u1, c + n * units, h ? h + n * units : nullptr,
        y + n * y_stride);
}

// Floats of input projection made for every step before the loop (2 MiB); beyond, 8 steps at a time.
constexpr std::int64_t kWholeProjection = std::int64_t{512} << 10;
constexpr std::int64_t kBlockSteps = 8;
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
        gates(N, U, u0, u1, gx + t * G, T * G, g, nullptr, c, y + t * U, T * U);
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
  gates(rows, U, 0, U, zx, zx_stride, g + n0 * G, h + n0 * U, c + n0 * U, y + (n0 * T + t) * U, T * U);
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

// Pieces of one block of steps' input projection (one step of one thread's sequences, over half of the
// gates' columns when there are several threads), claimed through one counter per thread: a thread takes its own sequences' pieces first,
// then what is left of the others', so a faster core takes over part of a slower one's share.
class ProjectionPieces {
 public:
  ProjectionPieces(std::int64_t blocks, std::int64_t threads)
      : next_(static_cast<std::size_t>(blocks * threads)), threads_(threads) {}

  // piece(owner, index) for every piece of `block` this thread claims; `count` pieces per owner.
  template <class Piece>
  void run(std::int64_t block, std::int64_t self, std::int64_t team, std::int64_t count, Piece&& piece) {
    for (std::int64_t k = 0; k < team; ++k) {
      const std::int64_t owner = (self + k) % team;
      auto& next = next_[static_cast<std::size_t>(block * threads_ + owner)].value;
      for (std::int64_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) piece(owner, i);
    }
  }

 private:
  struct alignas(64) Counter {
    std::atomic<std::int64_t> value{0};
  };
  std::vector<Counter> next_;
  std::int64_t threads_;
};

// Projections made 8 steps at a time, into two halves of gx [2][8][N, 4U] by turns: the threads project a
// block's steps (their own sequences' pieces first, then the rest), then each runs the block's steps for
// its share of the sequences while the faster ones go on to project the next block. One barrier per block.
// The whole projection (6.5 MB at batch 32, length 100, 128 units) left the cache and ran at 42-65 GFLOP/s
// against 88 for a step's. With each thread projecting only its own sequences, the slower of a VM's two
// cores (0.7-0.8x the other's speed at times) held up the whole batch: LSTM(128) at batch 32 on 2 threads
// predicted 7,400 samples/s against 9,200 now (AVX2: 4,230 against 4,980).
void shared_projections(std::int64_t N, std::int64_t T, std::int64_t I, std::int64_t U, const float* x, const float* w,
                        std::uint64_t w_version, const float* b, float* gx, const float* r, std::uint64_t r_version,
                        float* g, float* y, float* h, float* c) {
  const std::int64_t G = 4 * U, S = kBlockSteps, blocks = (T + S - 1) / S;
  const int threads = sequence_threads(N, N * G * (U + I));
  const std::int64_t halves = threads > 1 && G >= 256 ? 2 : 1, columns = (G / halves + 15) / 16 * 16;  // of a piece
  ProjectionPieces pieces(blocks, threads);
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t team = omp_get_num_threads(), self = omp_get_thread_num();
    const auto [n0, rows] = share(N, team, self);
    auto project = [&](std::int64_t block) {
      const std::int64_t t0 = block * S, steps = std::min(S, T - t0);
      float* out = gx + block % 2 * S * N * G;
      pieces.run(block, self, team, steps * halves, [&](std::int64_t owner, std::int64_t i) {
        const auto [m0, m] = share(N, team, owner);
        const std::int64_t s = i / halves, j0 = i % halves * columns;
        if (m > 0)
          packed_matmul_columns(x + (m0 * T + t0 + s) * I, w, w_version, out + (s * N + m0) * G,
                                {.m = m, .n = G, .k = I, .bias = b}, T * I, j0, j0 + columns);
      });
    };
    project(0);
#pragma omp barrier
    for (std::int64_t block = 0; block < blocks; ++block) {
      const std::int64_t t0 = block * S, steps = std::min(S, T - t0);
      const float* in = gx + block % 2 * S * N * G;
      for (std::int64_t s = 0; rows > 0 && s < steps; ++s)
        run_step(n0, rows, T, U, t0 + s, in + (s * N + n0) * G, G, r, r_version, g, y, h, c);
      if (block + 1 < blocks) project(block + 1);
#pragma omp barrier
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
  const std::int64_t N = a.batch, T = a.time, U = a.units, G = 4 * U;
  const std::size_t state = static_cast<std::size_t>(N * U);
  if (h0) std::copy(h0, h0 + state, h); else std::fill(h, h + state, 0.0f);
  if (c0) std::copy(c0, c0 + state, c); else std::fill(c, c + state, 0.0f);
  if (N * T == 0) return;
  // The input projection gx = x W + b (gates i, f, c, o). When every step's projection fits in 2 MiB (short
  // batches: one sequence is 200 KiB) it is one product before the loop, [N, T, 4U]; otherwise it is made
  // 8 steps at a time inside the loop (shared_projections). The buffers stay with the thread from call to call.
  thread_local Scratch gx_buffer, g_buffer;
  const std::int64_t I = a.input;
  const bool per_step = T * N * G > kWholeProjection;
  float* gx = gx_buffer.floats((per_step ? 2 * kBlockSteps : T) * N * G);
  float* g = g_buffer.floats(N * G);
  if (per_step) {
    shared_projections(N, T, I, U, x, w, w_version, b, gx, r, r_version, g, y, h, c);
  } else {
    packed_matmul(x, w, w_version, gx, {.m = N * T, .n = G, .k = I, .bias = b});
    if (N < omp_get_max_threads() && U % 16 == 0 && N * G * U >= kSplitUnitsWork)
      split_units(N, T, U, gx, g, r, r_version, y, h, c);
    else
      own_sequences(N, T, U, gx, g, r, r_version, y, h, c);
  }
  gx_buffer.release();
  g_buffer.release();
}

}  // namespace keras::kernels
