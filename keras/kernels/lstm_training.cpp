#include "keras/kernels/lstm_training.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/matmul.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/kernels/scratch.hpp"
#include "keras/kernels/vector_math.hpp"

namespace keras::kernels {
namespace {

using vector_math::sigmoid8;
using vector_math::sum8;
using vector_math::tanh8;

// The recurrent kernel changes between calls (every optimizer step), so each pass packs it afresh, once per
// thread, under a version stamp no pack has had (Tensor versions count up from 0, far below these).
std::uint64_t fresh_version() {
  static std::atomic<std::uint64_t> next{std::uint64_t{1} << 62};
  return next++;
}

// The workspace: gates [N][T][4U] (i, f, c, o after their activations), then cells [N][T][U].
struct Workspace {
  float* gates;
  float* cells;
};
Workspace workspace_of(const RnnArgs& a, void* w) {
  float* gates = static_cast<float*>(w);
  return {gates, gates + a.batch * a.time * 4 * a.units};
}

// The threads' shares of the sequences: rows [n0, n0 + rows) for this thread of the team.
struct Share {
  std::int64_t n0, rows;
};
Share share_of(std::int64_t n) {
  const std::int64_t team = omp_get_num_threads(), each = (n + team - 1) / team;
  const std::int64_t n0 = std::min(n, omp_get_thread_num() * each);
  return {n0, std::min(n, n0 + each) - n0};
}

int team_for(std::int64_t n) { return static_cast<int>(std::min<std::int64_t>(n, omp_get_max_threads())); }

// One row's step forward: z holds x W + b for the four gates, zh h R; the activated gates go back into z,
// c = f c_prev + i cand into cell, h = o tanh(c) into h.
__attribute__((target("avx2,fma"))) void gates_forward(float* z, const float* zh, const float* c_prev, float* cell,
                                                       float* h, std::int64_t units) {
  for (std::int64_t j = 0; j < units; j += 8) {
    const __m256 i = sigmoid8(sum8(z, zh, j)), f = sigmoid8(sum8(z, zh, units + j));
    const __m256 cand = tanh8(sum8(z, zh, 2 * units + j)), o = sigmoid8(sum8(z, zh, 3 * units + j));
    const __m256 c = _mm256_fmadd_ps(f, _mm256_loadu_ps(c_prev + j), _mm256_mul_ps(i, cand));
    _mm256_storeu_ps(z + j, i);
    _mm256_storeu_ps(z + units + j, f);
    _mm256_storeu_ps(z + 2 * units + j, cand);
    _mm256_storeu_ps(z + 3 * units + j, o);
    _mm256_storeu_ps(cell + j, c);
    _mm256_storeu_ps(h + j, _mm256_mul_ps(o, tanh8(c)));
  }
}

// dz[j..j+8) = v, also added into db (the thread's share of the bias gradient).
__attribute__((target("avx2,fma"), always_inline)) inline void put8(float* dz, float* db, std::int64_t j, __m256 v) {
  _mm256_storeu_ps(dz + j, v);
  _mm256_storeu_ps(db + j, _mm256_add_ps(_mm256_loadu_ps(db + j), v));
}

// One row's step backward: from the activated gates, the cells c and c_prev, dh = dy + the next step's
// recurrent gradient and dc (the next step's, updated to this step's c_prev's), the gradients of the four
// gates' sums into dz and added into db.
__attribute__((target("avx2,fma"))) void gates_backward(const float* gates, const float* cell, const float* c_prev,
                                                        const float* dy, const float* dh_next, float* dc, float* dz,
                                                        float* db, std::int64_t units) {
  const __m256 one = _mm256_set1_ps(1.0f);
  for (std::int64_t j = 0; j < units; j += 8) {
    const __m256 i = _mm256_loadu_ps(gates + j), f = _mm256_loadu_ps(gates + units + j);
    const __m256 cand = _mm256_loadu_ps(gates + 2 * units + j), o = _mm256_loadu_ps(gates + 3 * units + j);
    const __m256 dh = _mm256_add_ps(_mm256_loadu_ps(dy + j), _mm256_loadu_ps(dh_next + j));
    const __m256 tc = tanh8(_mm256_loadu_ps(cell + j));
    const __m256 dcell = _mm256_fmadd_ps(_mm256_mul_ps(dh, o), _mm256_fnmadd_ps(tc, tc, one), _mm256_loadu_ps(dc + j));
    const __m256 di = _mm256_mul_ps(dcell, cand), dcand = _mm256_mul_ps(dcell, i);
    const __m256 df = _mm256_mul_ps(dcell, _mm256_loadu_ps(c_prev + j)), d_o = _mm256_mul_ps(dh, tc);
    _mm256_storeu_ps(dc + j, _mm256_mul_ps(dcell, f));
    put8(dz, db, j, _mm256_mul_ps(di, _mm256_mul_ps(i, _mm256_sub_ps(one, i))));
    put8(dz, db, units + j, _mm256_mul_ps(df, _mm256_mul_ps(f, _mm256_sub_ps(one, f))));
    put8(dz, db, 2 * units + j, _mm256_mul_ps(dcand, _mm256_fnmadd_ps(cand, cand, one)));
    put8(dz, db, 3 * units + j, _mm256_mul_ps(d_o, _mm256_mul_ps(o, _mm256_sub_ps(one, o))));
  }
}

}  // namespace

bool lstm_training_fits(const RnnArgs& a) {
  return a.cell == RnnCell::lstm && own_kernels() && cpu_level() >= CpuLevel::avx2 && a.units > 0 && a.units % 8 == 0 &&
         a.input > 0;
}

std::size_t lstm_training_workspace_bytes(const RnnArgs& a) {
  return sizeof(float) * static_cast<std::size_t>(a.batch * a.time * 5 * a.units);
}

void lstm_training_forward(const RnnArgs& a, const float* x, const float* h0, const float* c0, const float* w,
                           const float* r, const float* b, float* y, float* h, float* c, void* workspace) {
  const std::int64_t N = a.batch, T = a.time, U = a.units, G = 4 * U;
  const Workspace ws = workspace_of(a, workspace);
  matmul(x, w, ws.gates, {.m = N * T, .n = G, .k = a.input, .bias = b});  // every step's x W + b
  const std::vector<float> zeros(static_cast<std::size_t>(N * U), 0.0f);
  if (!h0) h0 = zeros.data();
  if (!c0) c0 = zeros.data();
  const std::uint64_t version = fresh_version();
#pragma omp parallel num_threads(team_for(N))
  {
    const Share s = share_of(N);
    thread_local Scratch zh_buffer;
    float* zh = zh_buffer.floats(s.rows * G);
    for (std::int64_t t = 0; s.rows > 0 && t < T; ++t) {
      const float* state = t == 0 ? h0 + s.n0 * U : y + (s.n0 * T + t - 1) * U;
      packed_matmul_columns(state, r, version, zh, {.m = s.rows, .n = G, .k = U}, t == 0 ? U : T * U, 0, G);
      for (std::int64_t q = 0; q < s.rows; ++q) {
        const std::int64_t at = (s.n0 + q) * T + t;
        const float* c_prev = t == 0 ? c0 + (s.n0 + q) * U : ws.cells + (at - 1) * U;
        gates_forward(ws.gates + at * G, zh + q * G, c_prev, ws.cells + at * U, y + at * U, U);
      }
    }
    zh_buffer.release();
  }
  for (std::int64_t n = 0; n < N; ++n) {
    std::copy_n(y + (n * T + T - 1) * U, U, h + n * U);
    if (c) std::copy_n(ws.cells + (n * T + T - 1) * U, U, c + n * U);
  }
}

void lstm_training_backward(const RnnArgs& a, const RnnBackwardArgs& g) {
  const std::int64_t N = a.batch, T = a.time, U = a.units, G = 4 * U, I = a.input;
  const Workspace ws = workspace_of(a, const_cast<void*>(g.workspace));
  thread_local Scratch dz_buffer, inputs_buffer;
  float* dz = dz_buffer.floats(N * T * G);  // the gradients of every step's gate sums, [N][T][4U]
  const std::vector<float> zeros(static_cast<std::size_t>(N * U), 0.0f);
  const float* c0 = g.c0 ? g.c0 : zeros.data();
  const std::uint64_t version = fresh_version();
  const int team = team_for(N);
  std::vector<float> db(static_cast<std::size_t>(team * G), 0.0f);  // each thread's share of the bias gradient
#pragma omp parallel num_threads(team)
  {
    const Share s = share_of(N);
    thread_local Scratch state_buffer;
    float* dh = state_buffer.floats(2 * s.rows * U);  // the recurrent gradient into the step before, then dc
    float* dc = dh + s.rows * U;
    float* my_db = db.data() + omp_get_thread_num() * G;
    std::copy_n(g.dh ? g.dh + s.n0 * U : zeros.data(), s.rows * U, dh);
    std::copy_n(g.dc ? g.dc + s.n0 * U : zeros.data(), s.rows * U, dc);
    for (std::int64_t t = T - 1; s.rows > 0 && t >= 0; --t) {
      for (std::int64_t q = 0; q < s.rows; ++q) {
        const std::int64_t at = (s.n0 + q) * T + t;
        const float* c_prev = t == 0 ? c0 + (s.n0 + q) * U : ws.cells + (at - 1) * U;
        gates_backward(ws.gates + at * G, ws.cells + at * U, c_prev, g.dy + at * U, dh + q * U, dc + q * U,
                       dz + at * G, my_db, U);
      }
      packed_matmul_columns(dz + (s.n0 * T + t) * G, g.r, version, dh, {.m = s.rows, .n = U, .k = G, .trans_b = true},
                            T * G, 0, U);
    }
    if (g.dh0 && s.rows > 0) std::copy_n(dh, s.rows * U, g.dh0 + s.n0 * U);
    if (g.dc0 && s.rows > 0) std::copy_n(dc, s.rows * U, g.dc0 + s.n0 * U);
    state_buffer.release();
  }
  // The products over every step: dx = dz Wᵀ, and [dW; dR] = [x, h_prev]ᵀ dz as one product (h_prev: each
  // step's state before it, h0 first; 2 AVX2 threads, 128 + 128 inputs over 6,400 rows: 133-147 GFLOP/s
  // against 97-127 for each half alone); db, dz summed over steps and sequences, from the threads' shares.
  std::copy_n(db.data(), G, g.db);
  for (int t = 1; t < team; ++t)
    for (std::int64_t j = 0; j < G; ++j) g.db[j] += db[t * G + j];
  matmul(dz, g.w, g.dx, {.m = N * T, .n = I, .k = G, .trans_b = true});
  const std::int64_t width = I + U;
  float* inputs = inputs_buffer.floats(N * T * width + width * G);  // [N][T][I + U], then [dW; dR]
  float* dwr = inputs + N * T * width;
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t t = 0; t < T; ++t) {
      float* row = inputs + (n * T + t) * width;
      std::copy_n(g.x + (n * T + t) * I, I, row);
      std::copy_n(t > 0 ? g.y + (n * T + t - 1) * U : g.h0 ? g.h0 + n * U : zeros.data(), U, row + I);
    }
  matmul(inputs, dz, dwr, {.m = width, .n = G, .k = N * T, .trans_a = true});
  std::copy_n(dwr, I * G, g.dw);
  std::copy_n(dwr + I * G, U * G, g.dr);
  dz_buffer.release();
  inputs_buffer.release();
}

}  // namespace keras::kernels
