#pragma once
// What batch normalization (keras/ops/normalization.cpp) and layer normalization (keras/ops/layer_norm.cpp)
// share: argument checks, the inputs they record, and per-channel sums of x seen as [outer, channels, inner],
// in double precision, split over the OpenMP threads in fixed ranges whose partial sums are added in thread
// order, so results depend only on the thread count.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <omp.h>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/errors.hpp"
#include "keras/tensor.hpp"

namespace keras::ops::normalization_detail {

inline Tensor as_float(const Tensor& t, const char* op) {
  if (!t.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

inline int normalize_axis(int axis, int ndim, const char* op, const Shape& shape) {
  const int a = axis < 0 ? axis + ndim : axis;
  if (a < 0 || a >= ndim)
    throw ValueError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for input of shape " +
                     shape_str(shape));
  return a;
}

inline void check_param(const Tensor& p, std::int64_t channels, const char* what, const char* op) {
  if (p.defined() && p.size() != channels)
    throw ValueError(std::string(op) + ": " + what + " of shape " + shape_str(p.shape()) + " does not match the " +
                     std::to_string(channels) + " normalized features");
}

inline std::vector<float> values_or(const Tensor& p, std::int64_t n, float fill) {
  if (!p.defined()) return std::vector<float>(n, fill);
  Tensor f = as_float(p, "normalization");
  return std::vector<float>(f.data<float>(), f.data<float>() + n);
}

// Inputs recorded on the tape: x, then gamma and beta when defined; their positions in the list.
struct Recorded {
  std::vector<Tensor> inputs;
  int gamma_at = -1, beta_at = -1;
};

inline Recorded recorded_inputs(const Tensor& x, const Tensor& gamma, const Tensor& beta) {
  Recorded r{{x}};
  if (gamma.defined()) {
    r.gamma_at = static_cast<int>(r.inputs.size());
    r.inputs.push_back(gamma);
  }
  if (beta.defined()) {
    r.beta_at = static_cast<int>(r.inputs.size());
    r.inputs.push_back(beta);
  }
  return r;
}

// x seen as [outer, channels, inner] around the contiguous axes [first, last].
struct Layout {
  std::int64_t outer = 1, channels = 1, inner = 1;
  std::int64_t size() const { return outer * channels * inner; }
};

inline Layout layout_of(const Shape& shape, int first, int last) {
  Layout l;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < first) l.outer *= shape[d];
    else if (d <= last) l.channels *= shape[d];
    else l.inner *= shape[d];
  }
  return l;
}

// run(begin, end, a, b) over [0, count) in one contiguous range per OpenMP thread (or all on this thread
// when `serial`), each adding into its own C-long partial sums a and b, which are then added to s1 and s2
// in thread order, so results do not depend on scheduling.
template <class Run>
void split_sums(std::int64_t count, std::int64_t C, bool serial, std::vector<double>& s1, std::vector<double>& s2,
                Run&& run) {
  const int threads = omp_get_max_threads();
  if (serial || threads == 1) {
    run(0, count, s1.data(), s2.data());
    return;
  }
  std::vector<double> part(static_cast<std::size_t>(threads) * 2 * C, 0.0);
  int used = 1;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp single
    used = n;
    const std::int64_t chunk = (count + n - 1) / n;
    const std::int64_t b = std::min<std::int64_t>(count, t * chunk), e = std::min<std::int64_t>(count, b + chunk);
    run(b, e, part.data() + 2 * C * t, part.data() + 2 * C * t + C);
  }
  for (int t = 0; t < used; ++t)
    for (std::int64_t c = 0; c < C; ++c) {
      s1[c] += part[2 * C * t + c];
      s2[c] += part[2 * C * t + C + c];
    }
}

// s1[c] += f1(idx, c), s2[c] += f2(idx, c) over all (outer, inner) positions of each channel, in
// double precision. Threads sum disjoint outer ranges into their own arrays, merged in thread order
// so results do not depend on scheduling.
template <class F>
void channel_sums(const Layout& l, std::vector<double>& s1, std::vector<double>& s2, F&& f) {
  const auto C = l.channels, I = l.inner;
  s1.assign(C, 0.0);
  s2.assign(C, 0.0);
  auto run = [&](std::int64_t o_begin, std::int64_t o_end, double* a, double* b) {
    for (std::int64_t o = o_begin; o < o_end; ++o)
      for (std::int64_t c = 0; c < C; ++c) {
        const std::int64_t base = (o * C + c) * I;
        double x1 = 0, x2 = 0;
        for (std::int64_t i = 0; i < I; ++i) {
          auto [v1, v2] = f(base + i, c);
          x1 += v1;
          x2 += v2;
        }
        a[c] += x1;
        b[c] += x2;
      }
  };
  split_sums(l.outer, C, l.size() < kernels::kParallelGrain || l.outer < 2, s1, s2, run);
}

// The same sums when the channels are the last axis (inner == 1: x is [rows, C], channels_last), the
// layout of every Keras image model: add_rows(r0, r1, a, b) adds rows [r0, r1) into float accumulators
// a and b of C values each, with a loop over c that vectorizes (for the CPU's best vector instructions:
// kernels/cpu_dispatch.hpp). Rows go in blocks of 64 into float
// partials, which are added to the double totals; threads take fixed row ranges, merged in thread
// order, so results depend only on the thread count.
template <class AddRows>
void row_sums(std::int64_t rows, std::int64_t C, std::vector<double>& s1, std::vector<double>& s2, AddRows&& add_rows) {
  constexpr std::int64_t kBlock = 64;
  s1.assign(C, 0.0);
  s2.assign(C, 0.0);
  auto run = [&](std::int64_t begin, std::int64_t end, double* a, double* b) {
    std::vector<float> fa(C), fb(C);
    for (std::int64_t r = begin; r < end; r += kBlock) {
      std::fill(fa.begin(), fa.end(), 0.f);
      std::fill(fb.begin(), fb.end(), 0.f);
      kernels::with_best_cpu([&] { add_rows(r, std::min(end, r + kBlock), fa.data(), fb.data()); });
      for (std::int64_t c = 0; c < C; ++c) {
        a[c] += fa[c];
        b[c] += fb[c];
      }
    }
  };
  split_sums(rows, C, rows * C < kernels::kParallelGrain || rows < 2 * kBlock, s1, s2, run);
}

}  // namespace keras::ops::normalization_detail
