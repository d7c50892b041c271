#include "keras/storage.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace keras {
namespace {

constexpr std::size_t kAlign = 64;
constexpr std::size_t kPoolLimit = std::size_t(1) << 31;  // never park more than 2 GiB
// Buffers above this go back to the system: a data set or its float conversion, parked, would stay
// resident for the rest of the process (and over-count the peak memory by its size), while the
// per-step tensors the pool is for are smaller (the seed CNN's largest at batch 128: 9.4 MB); a larger
// one costs its page faults once a step, little next to the step that needs it.
constexpr std::size_t kParkLimit = std::size_t(16) << 20;

struct Pool {
  std::mutex mutex;
  std::unordered_map<std::size_t, std::vector<void*>> free;
  std::size_t parked = 0;
};

Pool& pool() {
  static Pool* p = new Pool();  // leaked on purpose: outlives every static Tensor
  return *p;
}

std::size_t rounded(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

void* acquire(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  Pool& p = pool();
  {
    std::lock_guard lock(p.mutex);
    auto it = p.free.find(bytes);
    if (it != p.free.end() && !it->second.empty()) {
      void* ptr = it->second.back();
      it->second.pop_back();
      p.parked -= bytes;
      return ptr;
    }
  }
  void* ptr = std::aligned_alloc(kAlign, bytes);
  if (!ptr) throw std::bad_alloc();
  return ptr;
}

void release(void* ptr, std::size_t bytes) {
  if (!ptr) return;
  Pool& p = pool();
  {
    std::lock_guard lock(p.mutex);
    if (bytes <= kParkLimit && p.parked + bytes <= kPoolLimit) {
      p.free[bytes].push_back(ptr);
      p.parked += bytes;
      return;
    }
  }
  std::free(ptr);
}

}  // namespace

Storage::Storage(std::size_t bytes) : data_(acquire(rounded(bytes))), bytes_(rounded(bytes)), owned_(true) {}

Storage::Storage(void* external, std::size_t bytes) : data_(external), bytes_(bytes), owned_(false) {}

Storage::~Storage() {
  if (owned_) release(data_, bytes_);
}

std::size_t storage_pool_bytes() {
  std::lock_guard lock(pool().mutex);
  return pool().parked;
}

void storage_pool_clear() {
  Pool& p = pool();
  std::lock_guard lock(p.mutex);
  for (auto& [bytes, list] : p.free)
    for (void* ptr : list) std::free(ptr);
  p.free.clear();
  p.parked = 0;
}

}  // namespace keras
