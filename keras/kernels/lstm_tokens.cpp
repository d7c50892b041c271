#include "keras/kernels/lstm_tokens.hpp"

#include <algorithm>
#include <cstring>
#include <list>
#include <mutex>
#include <vector>

#include "keras/kernels/lstm_inference.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/scratch.hpp"

namespace keras::kernels {
namespace {

// The projections w + b of an embedding table's rows, each made the first time a call reads its token.
struct Projections {
  Versioned table, w, b;
  std::int64_t vocabulary = 0, input = 0, gates = 0;
  std::vector<float> rows;    // [vocabulary, gates]
  std::vector<bool> made;     // per token
  bool same(const Versioned& t, const Versioned& wv, const Versioned& bv, std::int64_t v, std::int64_t i,
            std::int64_t g) const {
    return table.data == t.data && table.version == t.version && w.data == wv.data && w.version == wv.version &&
           b.data == bv.data && b.version == bv.version && vocabulary == v && input == i && gates == g;
  }
};

// The last few LSTMs' projections, the most recently used first; one lock for making and reading them.
constexpr std::size_t kKeptTables = 4;
// Floats of gathered projections per run of sequences (64 MiB).
constexpr std::int64_t kRunFloats = std::int64_t{16} << 20;
std::mutex kept_lock;
std::list<Projections> kept;

Projections& projections_for(Versioned table, Versioned w, Versioned b, std::int64_t vocabulary, std::int64_t input,
                             std::int64_t gates) {
  auto it = std::find_if(kept.begin(), kept.end(),
                         [&](const Projections& p) { return p.table.data == table.data && p.w.data == w.data; });
  if (it != kept.end()) {
    kept.splice(kept.begin(), kept, it);
  } else {
    kept.emplace_front();
    if (kept.size() > kKeptTables) kept.pop_back();
  }
  Projections& p = kept.front();
  if (!p.same(table, w, b, vocabulary, input, gates)) {  // new, or the weights changed: start over
    p = Projections{table, w, b, vocabulary, input, gates, {}, {}};
    p.rows.resize(static_cast<std::size_t>(vocabulary * gates));
    p.made.assign(static_cast<std::size_t>(vocabulary), false);
  }
  return p;
}

// Makes the rows of the tokens among ids[0, n) not made yet: their table rows gathered, one product.
void make_rows(Projections& p, const std::int64_t* ids, std::int64_t n) {
  std::vector<std::int64_t> missing;
  for (std::int64_t i = 0; i < n; ++i)
    if (!p.made[static_cast<std::size_t>(ids[i])]) {
      p.made[static_cast<std::size_t>(ids[i])] = true;
      missing.push_back(ids[i]);
    }
  if (missing.empty()) return;
  const std::int64_t m = static_cast<std::int64_t>(missing.size()), I = p.input, G = p.gates;
  thread_local Scratch gathered, products;
  float* x = gathered.floats(m * I);
  float* out = products.floats(m * G);
  for (std::int64_t i = 0; i < m; ++i) std::memcpy(x + i * I, p.table.data + missing[i] * I, I * sizeof(float));
  packed_matmul(x, p.w.data, p.w.version, out, {.m = m, .n = G, .k = I, .bias = p.b.data});
  for (std::int64_t i = 0; i < m; ++i)
    std::memcpy(p.rows.data() + missing[i] * G, out + i * G, G * sizeof(float));
  gathered.release();
  products.release();
}

}  // namespace

bool lstm_over_tokens(const RnnArgs& a, const std::int64_t* ids, Versioned table, std::int64_t vocabulary,
                      Versioned w, Versioned r, Versioned b, float* y, float* h, float* c) {
  const std::int64_t N = a.batch, T = a.time, U = a.units, G = 4 * U;
  if (!lstm_inference_fits(a) || vocabulary * G * std::int64_t{sizeof(float)} > kMaxTokenProjectionBytes) return false;
  std::fill(h, h + N * U, 0.0f);
  std::fill(c, c + N * U, 0.0f);
  if (N * T == 0) return true;
  // The sequences in runs whose gathered projections take at most kRunFloats.
  const std::int64_t run = std::max<std::int64_t>(1, kRunFloats / (T * G));
  thread_local Scratch gx_buffer;
  float* gx = gx_buffer.floats(std::min(N, run) * T * G);
  for (std::int64_t n0 = 0; n0 < N; n0 += run) {
    RnnArgs part = a;
    part.batch = std::min(run, N - n0);
    const std::int64_t* part_ids = ids + n0 * T;
    {
      std::lock_guard<std::mutex> hold(kept_lock);
      Projections& p = projections_for(table, w, b, vocabulary, a.input, G);
      make_rows(p, part_ids, part.batch * T);
      const float* rows = p.rows.data();
      parallel_rows(part.batch * T, G,
                    [&](std::int64_t i) { std::memcpy(gx + i * G, rows + part_ids[i] * G, G * sizeof(float)); });
    }
    lstm_recurrence(part, gx, r.data, r.version, y + n0 * T * U, h + n0 * U, c + n0 * U);
  }
  gx_buffer.release();
  return true;
}

}  // namespace keras::kernels
