#pragma once
// Raw, 64-byte aligned tensor memory. Freed buffers go back to a pool keyed by exact size,
// so a training loop that allocates the same shapes every step stops calling the system allocator.
#include <cstddef>

namespace keras {

class Storage {
 public:
  explicit Storage(std::size_t bytes);
  /// Wraps memory owned elsewhere (not freed, not pooled).
  Storage(void* external, std::size_t bytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_;
  std::size_t bytes_;
  bool owned_;
};

/// Bytes currently parked in the buffer pool (for tests and memory reports).
std::size_t storage_pool_bytes();
/// Returns every pooled buffer to the system.
void storage_pool_clear();

}  // namespace keras
