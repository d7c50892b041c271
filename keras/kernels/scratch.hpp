#pragma once
// Scratch floats a kernel keeps from call to call on one thread (declared thread_local), so that a
// loop of calls does not allocate and fault in its buffers every time; up to 64 MiB, past which
// release() gives them back.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace keras::kernels {

class Scratch {
 public:
  static constexpr std::size_t kKeptFloats = std::size_t{16} << 20;  // 64 MiB

  /// Room for n floats (contents unspecified), for the thread that owns this Scratch: inside an OpenMP
  /// region each thread takes its own (a thread_local Scratch), or the region's threads share one taken before.
  float* floats(std::int64_t n) {
    // Grown only: shrunk and grown back, a vector zeroes the regrown floats (each ResNet stage after a
    // smaller one, on every call).
    if (static_cast<std::size_t>(n) > data_.size()) data_.resize(static_cast<std::size_t>(n));
    return data_.data();
  }
  /// floats(n), its first float on a 64-byte boundary (for the register tiles' aligned panel loads).
  float* aligned_floats(std::int64_t n) {
    constexpr std::int64_t kLine = 16;  // floats per 64 bytes
    float* room = floats(n + kLine);
    const auto skip = (kLine - static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(room) / sizeof(float) % kLine)) % kLine;
    return room + skip;
  }
  /// Frees the buffer when it is past kKeptFloats, after the call that needed it.
  void release() {
    if (data_.capacity() > kKeptFloats) std::vector<float>().swap(data_);
  }

 private:
  std::vector<float> data_;
};

}  // namespace keras::kernels
