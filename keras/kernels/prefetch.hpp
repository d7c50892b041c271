#pragma once
// Memory brought into L2 a few cache lines at a time between a kernel's register tiles: the tiles are
// bound by their multiply-adds, so what the next work item reads arrives while they run, instead of the
// next item waiting on memory (copying a padded image waited on it for 13% of ResNet-20's first-stage
// weight gradient, one thread).
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

namespace keras::kernels {

class Prefetch {
 public:
  /// The largest next image worth fetching whole, in floats (256 KiB: half of a small L2).
  static constexpr std::int64_t kLargestImage = std::int64_t{64} << 10;

  /// Fetches [begin, begin + floats) over the next `steps` calls of step().
  void start(const float* begin, std::int64_t floats, std::int64_t steps) {
    next_ = reinterpret_cast<const char*>(begin);
    end_ = reinterpret_cast<const char*>(begin + floats);
    per_step_ = (floats * std::int64_t{sizeof(float)} / 64 + steps) / std::max<std::int64_t>(steps, 1);
  }
  void step() {
    for (std::int64_t i = 0; i < per_step_ && next_ < end_; ++i, next_ += 64) _mm_prefetch(next_, _MM_HINT_T1);
  }

 private:
  const char* next_ = nullptr;
  const char* end_ = nullptr;
  std::int64_t per_step_ = 0;
};

}  // namespace keras::kernels
