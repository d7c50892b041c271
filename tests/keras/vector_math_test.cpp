// keras/kernels/vector_math.hpp's rational tanh and the sigmoid made from it (LSTM inference's gates),
// against double-precision std::tanh and 1 / (1 + e^-x) over every 16th float of magnitude 2^-30 to 32 and
// its negative: within the bounds the header states. The AVX-512 forms run the same operations lane for lane,
// so on an AVX-512 CPU they must give the same bits.
#include <immintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/vector_math.hpp"

namespace vm = keras::kernels::vector_math;
using keras::kernels::CpuLevel;
using keras::kernels::cpu_level;

namespace {

struct Worst {
  double tanh_relative = 0, sigmoid_relative = 0, sigmoid_absolute = 0;
  std::int64_t differing_wide_lanes = 0;
};

// tanh and sigmoid of 8 floats, from the AVX2 forms and (wide) the AVX-512 ones; lanes 8-15 of the wide
// register hold the same values as 0-7.
__attribute__((target("avx2,fma"))) void narrow(const float* x, float* tanh, float* sigmoid) {
  const __m256 v = _mm256_loadu_ps(x);
  _mm256_storeu_ps(tanh, vm::rational_tanh8(v));
  _mm256_storeu_ps(sigmoid, vm::rational_sigmoid8(v));
}

__attribute__((target("avx512f,avx2,fma"))) void wide(const float* x, float* tanh, float* sigmoid) {
  alignas(64) float in[16], t[16], s[16];
  for (int j = 0; j < 16; ++j) in[j] = x[j % 8];
  const __m512 v = _mm512_load_ps(in);
  _mm512_store_ps(t, vm::rational_tanh16(v));
  _mm512_store_ps(s, vm::rational_sigmoid16(v));
  for (int j = 0; j < 8; ++j) tanh[j] = t[j + 8], sigmoid[j] = s[j + 8];
}

Worst sweep(bool check_wide) {
  Worst worst;
  const auto first = std::bit_cast<std::uint32_t>(0x1p-30f), last = std::bit_cast<std::uint32_t>(32.0f);
  for (std::uint32_t bits = first; bits < last; bits += 16 * 8) {
    float x[8], t[8], s[8], tw[8], sw[8];
    for (int j = 0; j < 8; ++j) x[j] = std::bit_cast<float>(bits + 16 * j) * (j % 2 ? -1.0f : 1.0f);
    narrow(x, t, s);
    if (check_wide) {
      wide(x, tw, sw);
      for (int j = 0; j < 8; ++j)
        worst.differing_wide_lanes += std::bit_cast<std::uint32_t>(tw[j]) != std::bit_cast<std::uint32_t>(t[j]) ||
                                      std::bit_cast<std::uint32_t>(sw[j]) != std::bit_cast<std::uint32_t>(s[j]);
    }
    for (int j = 0; j < 8; ++j) {
      const double xd = x[j], tanh = std::tanh(xd), sigmoid = 1 / (1 + std::exp(-xd));
      worst.tanh_relative = std::max(worst.tanh_relative, std::fabs(t[j] / tanh - 1));
      if (xd >= 0) worst.sigmoid_relative = std::max(worst.sigmoid_relative, std::fabs(s[j] / sigmoid - 1));
      else worst.sigmoid_absolute = std::max(worst.sigmoid_absolute, std::fabs(s[j] - sigmoid));
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("vector_math's rational tanh and sigmoid stay within their stated bounds of the true functions",
          "[kernels]") {
  if (cpu_level() < CpuLevel::avx2) return;  // the x86-64 baseline has neither
  const Worst worst = sweep(cpu_level() == CpuLevel::avx512);
  INFO("tanh " << worst.tanh_relative << ", sigmoid " << worst.sigmoid_relative << " relative (x >= 0), "
               << worst.sigmoid_absolute << " absolute (x < 0)");
  CHECK(worst.tanh_relative <= 3.3e-7);
  CHECK(worst.sigmoid_relative <= 1.9e-7);
  CHECK(worst.sigmoid_absolute <= 1.9e-7);
  CHECK(worst.differing_wide_lanes == 0);
  // Not vacuous: the bounds are within a factor of two of what the sweep meets.
  CHECK(worst.tanh_relative > 1.6e-7);
  // A NaN stays NaN (an LSTM fed a NaN predicts NaN, as Keras does); infinities saturate within the bounds,
  // tanh never past +-1; 0 gives 0 and 1/2 exactly.
  const float in[8] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 100.0f, -100.0f};
  float t[8], s[8];
  narrow(in, t, s);
  CHECK((std::isnan(t[0]) && std::isnan(t[1]) && std::isnan(s[0]) && std::isnan(s[1])));
  for (const int j : {2, 6}) {
    CHECK((t[j] <= 1.0f && t[j] >= 1.0f - 3.3e-7f && t[j + 1] == -t[j]));
    CHECK((s[j] <= 1.0f && s[j] >= 1.0f - 1.9e-7f && s[j + 1] >= 0.0f && s[j + 1] <= 1.9e-7f));
  }
  CHECK((t[4] == 0.0f && t[5] == 0.0f && s[4] == 0.5f && s[5] == 0.5f));
}
