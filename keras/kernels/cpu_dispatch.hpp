#pragma once
// Our own hot element loops (Adam's update, activation gradients), compiled three times and picked at
// run time: the library is built for any x86-64 CPU, and these loops still get AVX2 + FMA or AVX-512
// where the CPU has them. oneDNN picks its own kernels the same way.
//
//   kernels::with_best_cpu([&] { for (...) ...; });   // the lambda is inlined into each variant
//
// cpu_level() honours ONEDNN_MAX_CPU_ISA as oneDNN does (AVX2 caps both at AVX2, SSE41 or AVX at the
// x86-64 baseline), so one variable tests or measures the whole library at a lower ISA.
namespace keras::kernels {

enum class CpuLevel { baseline, avx2, avx512 };  // x86-64, x86-64-v3 (AVX2, FMA), x86-64-v4 (AVX-512)

/// What this CPU has, capped by ONEDNN_MAX_CPU_ISA; found once.
CpuLevel cpu_level();
const char* cpu_level_name(CpuLevel level);

/// Whether kerascpp's own kernels in place of oneDNN's (packed products and convolutions, convolution
/// weight gradients, tiled max pooling, LSTM inference) may serve: true unless KERAS_OWN_KERNELS=0, which
/// leaves all their work to oneDNN (to measure the two against each other).
bool own_kernels();
/// Sets what own_kernels() answers from now on (bench/kernel_shapes alternates the two call by call).
void set_own_kernels(bool enabled);

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
// flatten inlines fn (and what it calls) into each variant, which is then compiled for that target.
template <class Fn>
__attribute__((target("arch=x86-64-v4"), flatten)) void run_avx512(const Fn& fn) { fn(); }
template <class Fn>
__attribute__((target("arch=x86-64-v3"), flatten)) void run_avx2(const Fn& fn) { fn(); }

template <class Fn>
inline void with_best_cpu(const Fn& fn) {
  switch (cpu_level()) {
    case CpuLevel::avx512: run_avx512(fn); break;
    case CpuLevel::avx2: run_avx2(fn); break;
    default: fn();
  }
}
#else  // other compilers (clang serves the sanitizer build): the baseline build only
template <class Fn>
inline void with_best_cpu(const Fn& fn) { fn(); }
#endif

}  // namespace keras::kernels
