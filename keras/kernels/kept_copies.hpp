#pragma once
// Copies derived from a caller's buffer that stay valid while its contents do (packed weights, oneDNN's
// reordered weights, kernels with BatchNormalization folded in), kept under the buffer's address: an entry
// is reused while `current(entry)` says it still matches (same version stamp, same shapes), remade
// otherwise. At most `limit` bytes of copies; one past that drops them all first. Not thread-safe: each
// user keeps one per thread.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <unordered_map>
#include <utility>

namespace keras::kernels {

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
/// Floats on a 64-byte boundary (the register tiles' aligned panel loads), as a kept copy holds them.
using AlignedFloats = std::unique_ptr<float, FreeDeleter>;

/// `count` floats of AlignedFloats (contents unspecified); throws std::bad_alloc.
inline AlignedFloats aligned_floats(std::size_t count) {
  auto* memory = static_cast<float*>(std::aligned_alloc(64, (count * sizeof(float) + 63) / 64 * 64));
  if (!memory) throw std::bad_alloc();
  return AlignedFloats(memory);
}

template <class Entry>
class KeptCopies {
 public:
  explicit KeptCopies(std::size_t limit) : limit_(limit) {}

  /// The entry under `key` if current(entry), else make() (an Entry of `bytes` bytes) in its place.
  template <class Current, class Make>
  Entry& get(const void* key, Current&& current, std::size_t bytes, Make&& make) {
    auto it = slots_.find(key);
    if (it != slots_.end()) {
      if (current(std::as_const(it->second.entry))) return it->second.entry;
      bytes_ -= it->second.bytes;
      slots_.erase(it);
    }
    if (bytes_ + bytes > limit_) {
      slots_.clear();
      bytes_ = 0;
    }
    Entry& e = slots_.emplace(key, Slot{make(), bytes}).first->second.entry;
    bytes_ += bytes;
    return e;
  }
  std::size_t bytes() const { return bytes_; }

 private:
  struct Slot {
    Entry entry;
    std::size_t bytes;
  };
  std::unordered_map<const void*, Slot> slots_;
  std::size_t bytes_ = 0;
  const std::size_t limit_;
};

}  // namespace keras::kernels
