// The register tiles of keras/kernels/packed_tiles.hpp, called directly (packed_matmul, packed_conv), whatever
// the *_fits rules would choose on this CPU: the AVX2 tiles (6 x 16) and the AVX-512 ones (12 x 32), each
// against double-precision loops, over edge shapes: rows past a tile and split into halves, columns past a
// 16-column panel and a 32-column pair, depths past a 256-step pass, strides, padding, and the finish (scale,
// shift, residual, relu). Run at the CPU's best and under ONEDNN_MAX_CPU_ISA=AVX2, as CI does, both tiles run.
#include <cmath>

#include <catch2/catch.hpp>

#include "keras/kernels/conv_geometry.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

bool tiles_here() { return kernels::cpu_level() >= kernels::CpuLevel::avx2; }

std::vector<float> normal(std::int64_t n, std::uint64_t seed) {
  return random::normal({n}, 0, 1, DType::float32, seed).to_vector<float>();
}

void check_close(const std::vector<float>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(got[i] == Approx(want[i]).epsilon(1e-4).margin(1e-4));
  }
}

}  // namespace

TEST_CASE("packed_matmul's tiles match a plain loop over rows, columns and depths at their edges", "[packed]") {
  if (!tiles_here()) return;  // the x86-64 baseline has no tiles
  INFO(kernels::cpu_level_name(kernels::cpu_level()));
  std::uint64_t seed = 100;
  // 13 and 14 rows after a 72-row chunk: a 12-row tile and a slow single row, or halves; 86: 7 + 7.
  for (const std::int64_t m : {1, 7, 13, 14, 25, 85, 86, 150})
    for (const std::int64_t k : {5, 300})
      for (const std::int64_t n : {5, 17, 32, 40, 70})
        for (const bool relu : {false, true}) {
          INFO("m " << m << " k " << k << " n " << n << (relu ? " relu" : ""));
          const auto a = normal(m * k, ++seed), b = normal(k * n, ++seed), bias = normal(n, ++seed);
          std::vector<float> c(static_cast<std::size_t>(m * n), -7.0f);
          kernels::packed_matmul(a.data(), b.data(), seed, c.data(),
                                 {.m = m, .n = n, .k = k, .bias = bias.data(),
                                  .activation = relu ? kernels::Eltwise::relu : kernels::Eltwise::linear});
          std::vector<double> want(c.size());
          for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
              double s = bias[static_cast<std::size_t>(j)];
              for (std::int64_t p = 0; p < k; ++p) s += double(a[static_cast<std::size_t>(i * k + p)]) * b[static_cast<std::size_t>(p * n + j)];
              want[static_cast<std::size_t>(i * n + j)] = relu ? std::max(s, 0.0) : s;
            }
          check_close(c, want);
        }
}

TEST_CASE("packed_conv's tiles match a plain loop with the chain's scale, shift, residual and relu", "[packed]") {
  if (!tiles_here()) return;
  INFO(kernels::cpu_level_name(kernels::cpu_level()));
  struct Case {
    std::int64_t n, h, w, c, oc, k, stride, pad;
  };
  // Output rows of 9 and 4 positions (tiles across rows), channels past one and two panels, one image and three.
  const std::vector<Case> cases = {{1, 7, 9, 16, 17, 3, 1, 1}, {3, 7, 9, 3, 40, 3, 1, 1}, {2, 9, 8, 16, 5, 3, 2, 1},
                                   {1, 6, 6, 32, 70, 3, 1, 0}, {2, 5, 13, 8, 32, 5, 1, 2}};
  std::uint64_t seed = 200;
  for (const Case& s : cases)
    for (const bool relu : {false, true}) {
      INFO("n " << s.n << " " << s.h << "x" << s.w << " c " << s.c << " oc " << s.oc << " k " << s.k << " stride "
                << s.stride << (relu ? " relu" : ""));
      const std::int64_t oh = (s.h + 2 * s.pad - s.k) / s.stride + 1, ow = (s.w + 2 * s.pad - s.k) / s.stride + 1;
      kernels::ConvArgs a;
      a.rank = 2, a.n = s.n, a.c = s.c, a.oc = s.oc, a.in = {s.h, s.w, 1}, a.k = {s.k, s.k, 1}, a.out = {oh, ow, 1};
      a.stride = {s.stride, s.stride, 1}, a.pad_l = {s.pad, s.pad, 0};
      a.pad_r = {(oh - 1) * s.stride + s.k - s.h - s.pad, (ow - 1) * s.stride + s.k - s.w - s.pad, 0};
      const auto x = normal(s.n * s.h * s.w * s.c, ++seed), kernel = normal(s.k * s.k * s.c * s.oc, ++seed);
      const auto scale = normal(s.oc, ++seed), shift = normal(s.oc, ++seed), residual = normal(s.n * oh * ow * s.oc, ++seed);
      std::vector<float> y(residual.size(), -7.0f);
      kernels::packed_conv(x.data(), kernel.data(), seed, scale.data(), shift.data(), residual.data(), y.data(), a,
                           relu ? kernels::Eltwise::relu : kernels::Eltwise::linear);
      std::vector<double> want(y.size());
      for (std::int64_t b = 0; b < s.n; ++b)
        for (std::int64_t i = 0; i < oh; ++i)
          for (std::int64_t j = 0; j < ow; ++j)
            for (std::int64_t o = 0; o < s.oc; ++o) {
              double sum = 0;
              for (std::int64_t di = 0; di < s.k; ++di)
                for (std::int64_t dj = 0; dj < s.k; ++dj) {
                  const std::int64_t hi = i * s.stride + di - s.pad, wj = j * s.stride + dj - s.pad;
                  if (hi < 0 || hi >= s.h || wj < 0 || wj >= s.w) continue;
                  for (std::int64_t ci = 0; ci < s.c; ++ci)
                    sum += double(x[static_cast<std::size_t>(((b * s.h + hi) * s.w + wj) * s.c + ci)]) *
                           kernel[static_cast<std::size_t>(((di * s.k + dj) * s.c + ci) * s.oc + o)];
                }
              const std::size_t at = static_cast<std::size_t>(((b * oh + i) * ow + j) * s.oc + o);
              const double v = sum * scale[static_cast<std::size_t>(o)] + shift[static_cast<std::size_t>(o)] + residual[at];
              want[at] = relu ? std::max(v, 0.0) : v;
            }
      check_close(y, want);
    }
}
