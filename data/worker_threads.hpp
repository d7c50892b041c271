#pragma once
// Helpers for the pipeline's background threads (prefetch, parallel map): each one computes with a
// single OpenMP thread, so tensor ops inside map functions never oversubscribe the cores that the
// training step's OpenMP pool uses.
#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>

#include <omp.h>

#include "data/dataset.hpp"
#include "data/options.hpp"

namespace keras::data::detail {

/// Call first in every pipeline thread (after installing the pipeline's options): OpenMP's thread count
/// is per thread, so this limits only it (to Options().threading.max_intra_op_parallelism, default 1).
inline void enter_worker_thread() {
  omp_set_num_threads(static_cast<int>(std::max<std::int64_t>(1, current_options().threading.max_intra_op_parallelism.value_or(1))));
}

/// A thread count capped by the pipeline's threading.private_threadpool_size.
inline std::int64_t capped_threads(std::int64_t n) {
  const auto cap = current_options().threading.private_threadpool_size;
  return cap && *cap > 0 ? std::min(n, *cap) : n;
}

/// An op's `deterministic` argument resolved: its own value, else the pipeline's Options, else true.
inline bool resolve_deterministic(std::optional<bool> own) {
  return own.value_or(current_options().deterministic.value_or(true));
}

/// What AUTOTUNE means for a thread count: the number of cores.
inline std::int64_t autotune_threads() { return std::max<std::int64_t>(1, std::thread::hardware_concurrency()); }

/// A num_parallel_calls argument as a thread count (AUTOTUNE: one per core; 0 and 1: none). `op` names
/// the transformation in the error for other negative values.
inline std::int64_t parallel_calls(std::int64_t n, const char* op) {
  if (n == AUTOTUNE) return autotune_threads();
  if (n < 0) throw ValueError(std::string(op) + ": num_parallel_calls must be positive, 0 or AUTOTUNE, got " + std::to_string(n));
  return n;
}

/// An iterator applying *fn to input's elements on `threads` worker threads, in input order when
/// deterministic (map.cpp). *fn must outlive it.
IteratorPtr make_parallel_map_iterator(IteratorPtr input, const MapFn* fn, std::int64_t threads, std::optional<bool> deterministic);

}  // namespace keras::data::detail
