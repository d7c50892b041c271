#pragma once
// Element loops on the same OpenMP pool oneDNN uses. Small loops stay on one thread.
#include <algorithm>
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

/// The calling thread's contiguous piece [begin, end) of [0, n) inside a parallel region: pieces of
/// ceil(n / threads) in thread order, the last ones shorter or empty. A kernel that knows where its piece
/// ends fetches ahead only its own next item, never another thread's lines across cores.
struct ThreadShare {
  std::int64_t begin, end;
};
inline ThreadShare thread_share(std::int64_t n) {
  const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
  const std::int64_t chunk = (n + threads - 1) / threads;
  const std::int64_t begin = std::min(n, t * chunk);
  return {begin, std::min(n, begin + chunk)};
}

namespace detail {
// fn(begin, end) over one contiguous piece of [0, n) per OpenMP thread (or all of it on this one).
template <class Fn>
inline void split_ranges(std::int64_t n, bool serial, Fn&& fn) {
  if (serial || omp_get_max_threads() == 1) {
    if (n > 0) fn(std::int64_t{0}, n);
    return;
  }
#pragma omp parallel
  {
    const ThreadShare share = thread_share(n);
    if (share.begin < share.end) fn(share.begin, share.end);
  }
}
}  // namespace detail

/// fn(begin, end) over contiguous pieces of [0, n), one per OpenMP thread when n is large enough.
/// For hot element loops: inside fn, a plain loop over __restrict pointers vectorizes, where
/// parallel_for's per-element lambda often does not (pointers captured by reference are reloaded
/// at every element; measured 4-17x slower on one core).
template <class Fn>
inline void parallel_ranges(std::int64_t n, Fn&& fn) {
  detail::split_ranges(n, n < kParallelGrain, fn);
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

/// fn(begin, end) over contiguous row ranges of a [rows, cols] matrix, one per OpenMP thread when
/// rows * cols is large: parallel_rows for loops whose body wants the whole range (kernels/cpu_dispatch.hpp).
template <class Fn>
inline void parallel_row_ranges(std::int64_t rows, std::int64_t cols, Fn&& fn) {
  detail::split_ranges(rows, rows * cols < kParallelGrain || rows < 2, fn);
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
