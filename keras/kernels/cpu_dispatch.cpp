#include "keras/kernels/cpu_dispatch.hpp"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <string>

namespace keras::kernels {
namespace {

CpuLevel detect() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
    return CpuLevel::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("bmi2"))
    return CpuLevel::avx2;
#endif
  return CpuLevel::baseline;
}

// oneDNN's names: SSE41, AVX, AVX2, AVX2_VNNI, AVX512_CORE, AVX512_CORE_VNNI, …, AVX10_1_512…, ALL, DEFAULT.
CpuLevel cap_from_environment() {
  const char* value = std::getenv("ONEDNN_MAX_CPU_ISA");
  if (!value) value = std::getenv("DNNL_MAX_CPU_ISA");  // its older name
  if (!value) return CpuLevel::avx512;
  std::string isa(value);
  for (char& c : isa) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (isa.rfind("AVX512", 0) == 0 || isa.rfind("AVX10", 0) == 0) return CpuLevel::avx512;
  if (isa.rfind("AVX2", 0) == 0) return CpuLevel::avx2;
  if (isa == "SSE41" || isa == "AVX") return CpuLevel::baseline;
  return CpuLevel::avx512;  // ALL, DEFAULT, or a name oneDNN does not know either: no cap
}

}  // namespace

CpuLevel cpu_level() {
  static const CpuLevel level = [] {
    const CpuLevel has = detect(), cap = cap_from_environment();
    return has < cap ? has : cap;
  }();
  return level;
}

namespace {
std::atomic<bool>& own_kernels_flag() {
  static std::atomic<bool> enabled = [] {
    const char* value = std::getenv("KERAS_OWN_KERNELS");
    return !value || std::string(value) != "0";
  }();
  return enabled;
}
}  // namespace

bool own_kernels() { return own_kernels_flag().load(std::memory_order_relaxed); }
void set_own_kernels(bool enabled) { own_kernels_flag().store(enabled, std::memory_order_relaxed); }

const char* cpu_level_name(CpuLevel level) {
  switch (level) {
    case CpuLevel::avx512: return "x86-64-v4 (AVX-512)";
    case CpuLevel::avx2: return "x86-64-v3 (AVX2, FMA)";
    default: return "x86-64";
  }
}

}  // namespace keras::kernels
