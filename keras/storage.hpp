#pragma once
// Raw, 64-byte aligned tensor memory. Freed buffers go back to a pool keyed by exact size,
// so a training loop that allocates the same shapes every step stops calling the system allocator.
// String tensors hold std::string objects instead (constructed and destroyed here, never pooled).
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace keras {

class Storage {
 public:
  explicit Storage(std::size_t bytes);
  /// Wraps memory owned elsewhere (not freed, not pooled).
  Storage(void* external, std::size_t bytes);
  /// `count` empty std::strings (the storage of a string tensor).
  static Storage* strings(std::size_t count);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

  /// A stamp of the contents, unique in the process and never reused: a new one at construction and at
  /// every mark_modified(). Caches of values derived from the contents (packed weights) compare it.
  std::uint64_t version() const { return version_.load(std::memory_order_relaxed); }
  void mark_modified();

 private:
  enum class Kind : unsigned char { pooled, external, strings };
  Storage(void* data, std::size_t bytes, Kind kind);
  void* data_;
  std::size_t bytes_;
  Kind kind_;
  std::atomic<std::uint64_t> version_;
};

/// Bytes currently parked in the buffer pool (for tests and memory reports).
std::size_t storage_pool_bytes();
/// Returns every pooled buffer to the system.
void storage_pool_clear();

}  // namespace keras
