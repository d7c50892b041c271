#pragma once
// The oneDNN engine and stream (process-wide engine, one stream per thread), and a per-thread
// cache of primitives keyed by shape. Only files under keras/kernels include this header.
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

namespace keras::kernels {

dnnl::engine& engine();
dnnl::stream& stream();
/// Runs a primitive on this thread's stream; while a tracer listens (keras/profiler), as a kernel event.
void execute(const dnnl::primitive& primitive, const std::unordered_map<int, dnnl::memory>& args);

/// Builds a cache key from plain values (shapes, flags, enum values).
template <class... Args>
std::string cache_key(const Args&... args) {
  std::string key;
  (key.append(reinterpret_cast<const char*>(&args), sizeof(Args)), ...);
  return key;
}

/// A per-thread map from key to a cached primitive bundle (`Entry` holds primitive + memories).
template <class Entry>
std::unordered_map<std::string, Entry>& primitive_cache() {
  thread_local std::unordered_map<std::string, Entry> cache;
  return cache;
}

}  // namespace keras::kernels
