#include "keras/profiler/trace_hooks.hpp"

#include <chrono>

namespace keras::profiler {

namespace detail {
std::atomic<Tracer*> current_tracer{nullptr};
}

void set_tracer(Tracer* tracer) { detail::current_tracer.store(tracer, std::memory_order_release); }

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace keras::profiler
