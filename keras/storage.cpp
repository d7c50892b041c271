#include "keras/storage.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace keras {
namespace {

constexpr std::size_t kAlign = 64;
constexpr std::size_t kPoolLimit = std::size_t(1) << 31;  // never park more than 2 GiB
// Buffers above this size are parked only once their size has been asked for twice: a data set or its
// float conversion, made once and parked, would stay resident for the rest of the process (and
// over-count the peak memory by its size), while a large buffer that every step needs (an LSTM's oneDNN
// workspace: 20 MB at batch 64, length 100) would otherwise cost its page faults at every step
// (a quarter of the LSTM benchmark's time before this rule).
constexpr std::size_t kParkLimit = std::size_t(16) << 20;

struct Pool {
  std::mutex mutex;
  std::unordered_map<std::size_t, std::vector<void*>> free;
  std::size_t parked = 0;
  std::unordered_set<std::size_t> large_sizes_seen, large_sizes_recurring;
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
    if (bytes > kParkLimit) {
      if (p.large_sizes_seen.size() > 4096) {  // bounded, whatever sizes the caller asks for
        p.large_sizes_seen.clear();
        p.large_sizes_recurring.clear();
      }
      if (!p.large_sizes_seen.insert(bytes).second) p.large_sizes_recurring.insert(bytes);
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
    const bool parkable = bytes <= kParkLimit || p.large_sizes_recurring.count(bytes) > 0;
    if (parkable && p.parked + bytes <= kPoolLimit) {
      p.free[bytes].push_back(ptr);
      p.parked += bytes;
      return;
    }
  }
  std::free(ptr);
}

std::uint64_t next_version() {
  static std::atomic<std::uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

Storage::Storage(void* data, std::size_t bytes, Kind kind)
    : data_(data), bytes_(bytes), kind_(kind), version_(next_version()) {}

void Storage::mark_modified() { version_.store(next_version(), std::memory_order_relaxed); }

Storage::Storage(std::size_t bytes) : Storage(acquire(rounded(bytes)), rounded(bytes), Kind::pooled) {}

Storage::Storage(void* external, std::size_t bytes) : Storage(external, bytes, Kind::external) {}

Storage* Storage::strings(std::size_t count) {
  return new Storage(new std::string[count], count * sizeof(std::string), Kind::strings);
}

Storage::~Storage() {
  if (kind_ == Kind::pooled) release(data_, bytes_);
  if (kind_ == Kind::strings) delete[] static_cast<std::string*>(data_);
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
