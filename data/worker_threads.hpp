#pragma once
// Helpers for the pipeline's background threads (prefetch, parallel map): each one computes with a
// single OpenMP thread, so tensor ops inside map functions never oversubscribe the cores that the
// training step's OpenMP pool uses.
#include <algorithm>
#include <cstdint>
#include <thread>

#include <omp.h>

namespace keras::data::detail {

/// Call first in every pipeline thread: OpenMP's thread count is per thread, so this limits only it.
inline void enter_worker_thread() { omp_set_num_threads(1); }

/// What AUTOTUNE means for a thread count: the number of cores.
inline std::int64_t autotune_threads() { return std::max<std::int64_t>(1, std::thread::hardware_concurrency()); }

}  // namespace keras::data::detail
