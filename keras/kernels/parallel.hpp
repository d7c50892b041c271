#pragma once
// Element loops on the same OpenMP pool oneDNN uses. Small loops stay on one thread.
#include <cstdint>

#include <omp.h>

namespace keras::kernels {

constexpr std::int64_t kParallelGrain = 1 << 15;

/// fn(i) for i in [0, n), split over the OpenMP threads when n is large enough.
template <class Fn>
inline void parallel_for(std::int64_t n, Fn&& fn) {
  if (n < kParallelGrain || omp_get_max_threads() == 1) {
#pragma omp simd
    for (std::int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) fn(i);
}

/// fn(row) for each row of a [rows, cols] matrix, in parallel when rows * cols is large.
template <class Fn>
inline void parallel_rows(std::int64_t rows, std::int64_t cols, Fn&& fn) {
  if (rows * cols < kParallelGrain || rows < 2 || omp_get_max_threads() == 1) {
    for (std::int64_t r = 0; r < rows; ++r) fn(r);
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) fn(r);
}

/// Runs the oneDNN primitives of its scope on the calling thread when `work` (elements or
/// multiply-adds) is small: waking the pool costs more than such an op, and much more when
/// the cores are busy.
class SmallWorkScope {
 public:
  explicit SmallWorkScope(std::int64_t work) {
    if (work < kParallelGrain && (saved_ = omp_get_max_threads()) > 1) omp_set_num_threads(1);
    else saved_ = 0;
  }
  ~SmallWorkScope() {
    if (saved_) omp_set_num_threads(saved_);
  }
  SmallWorkScope(const SmallWorkScope&) = delete;
  SmallWorkScope& operator=(const SmallWorkScope&) = delete;

 private:
  int saved_ = 0;
};

}  // namespace keras::kernels
