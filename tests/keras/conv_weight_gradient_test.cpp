// The convolution's weight gradient (kernels::conv_backward_weights, and our own register tiles in
// keras/kernels/conv_weight_gradient.cpp called directly: AVX2's, or AVX-512's at the CPU's best) against a double-precision loop over every kernel entry and
// output position, over shapes that reach each edge of the tiles: output channels past a 16-column panel,
// windows of fewer or more than 6 floats, strides, asymmetric padding, 1-D, bias, and enough work to split
// over the threads at image and row boundaries; and the same tiles with dy made a band of rows at a time.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>

#include <catch2/catch.hpp>

#include "keras/kernels/conv_weight_gradient.hpp"
#include "keras/kernels/convolution.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

struct Case {
  std::int64_t rank, n, h, w, c, oc, kh, kw, stride, top, left, bottom, right;
};

kernels::ConvArgs args_of(const Case& s) {
  kernels::ConvArgs a;
  a.rank = s.rank, a.n = s.n, a.c = s.c, a.oc = s.oc;
  const std::int64_t oh = (s.h + s.top + s.bottom - s.kh) / s.stride + 1;
  const std::int64_t ow = (s.w + s.left + s.right - s.kw) / s.stride + 1;
  if (s.rank == 2) {
    a.in = {s.h, s.w, 1}, a.k = {s.kh, s.kw, 1}, a.out = {oh, ow, 1}, a.stride = {s.stride, s.stride, 1};
    a.pad_l = {s.top, s.left, 0}, a.pad_r = {s.bottom, s.right, 0};
  } else {
    a.in = {s.w, 1, 1}, a.k = {s.kw, 1, 1}, a.out = {ow, 1, 1}, a.stride = {s.stride, 1, 1};
    a.pad_l = {s.left, 0, 0}, a.pad_r = {s.right, 0, 0};
  }
  return a;
}

}  // namespace

TEST_CASE("a convolution's kernel and bias gradients equal double loops over tile edges, strides and padding",
          "[conv]") {
  // rank, n, h, w, c, oc, kh, kw, stride, top, left, bottom, right (h and kh are 1 for rank 1)
  const std::vector<Case> cases = {
      {2, 2, 7, 9, 3, 17, 3, 3, 1, 1, 1, 1, 1},       // window 9 = a 6-row and a 3-row tile; 1 column past a panel
      {2, 3, 8, 8, 16, 32, 3, 3, 2, 1, 1, 0, 0},      // stride 2, padding on the top and left only
      {2, 2, 40, 40, 4, 8, 3, 3, 2, 1, 1, 0, 0},      // stride 2 over several work items per image
      {2, 2, 12, 12, 1, 32, 5, 5, 1, 0, 0, 0, 0},     // one channel: a 5-row tile
      {2, 1, 5, 6, 7, 5, 2, 3, 1, 1, 1, 0, 1},        // fewer columns than a panel, an even kernel height
      {1, 4, 1, 30, 5, 40, 1, 5, 2, 0, 1, 0, 1},      // 1-D, 40 = 2 panels and 8 columns
      {2, 2, 10, 10, 64, 64, 1, 1, 1, 0, 0, 0, 0},    // 1 x 1, no copy of the input
      {2, 16, 32, 32, 16, 16, 3, 3, 1, 1, 1, 1, 1},   // ResNet-20's first stage: threads split the images' rows
      {2, 9, 13, 11, 8, 24, 3, 3, 1, 1, 1, 1, 1},     // an odd number of images and of rows per work item
      {1, 8, 1, 200, 24, 20, 1, 5, 1, 0, 0, 0, 0},    // Conv1D over 200 steps
  };
  for (const Case& s : cases) {
    const kernels::ConvArgs a = args_of(s);
    const std::int64_t OH = s.rank == 2 ? a.out[0] : 1, OW = s.rank == 2 ? a.out[1] : a.out[0];
    std::ostringstream name;
    name << "rank " << s.rank << " n " << s.n << " in " << s.h << "x" << s.w << " c " << s.c << " oc " << s.oc
         << " kernel " << s.kh << "x" << s.kw << " stride " << s.stride;
    INFO(name.str());
    const Tensor x = random::normal({s.n, s.h, s.w, s.c}, 0, 1, DType::float32, 1);
    const Tensor dy = random::normal({s.n, OH, OW, s.oc}, 0, 1, DType::float32, 2);
    const float *xp = x.data<float>(), *dyp = dy.data<float>();
    // The path the library takes on this CPU, then our tiles whatever the rules choose (where the CPU has them),
    // reading dy in memory and making it a band of rows at a time (each row asked for exactly once).
    for (const int path : {0, 1, 2}) {
      if (path > 0 && kernels::cpu_level() < kernels::CpuLevel::avx2) continue;
      INFO((path == 0 ? "conv_backward_weights" : path == 1 ? "our tiles" : "our tiles, dy made in bands"));
      std::vector<float> dkernel(static_cast<std::size_t>(s.kh * s.kw * s.c * s.oc), -7.0f), dbias(s.oc, -7.0f);
      std::vector<std::atomic<int>> asked(static_cast<std::size_t>(s.n * OH));
      const kernels::OutputGradientRows rows_of_dy = [&](std::int64_t b, std::int64_t first, std::int64_t rows, float* out) {
        std::copy(dyp + (b * OH + first) * OW * s.oc, dyp + (b * OH + first + rows) * OW * s.oc, out);
        for (std::int64_t r = first; r < first + rows; ++r) ++asked[static_cast<std::size_t>(b * OH + r)];
      };
      if (path == 2) kernels::conv_weight_gradient(xp, rows_of_dy, dkernel.data(), dbias.data(), a);
      else if (path == 1) kernels::conv_weight_gradient(xp, dyp, dkernel.data(), dbias.data(), a);
      else kernels::conv_backward_weights(xp, dyp, dkernel.data(), dbias.data(), a);
      if (path == 2)
        for (const auto& count : asked) REQUIRE(count == 1);
      for (std::int64_t i = 0; i < s.kh; ++i)
        for (std::int64_t j = 0; j < s.kw; ++j)
          for (std::int64_t ci = 0; ci < s.c; ++ci)
            for (std::int64_t o = 0; o < s.oc; ++o) {
              double sum = 0, magnitude = 0;
              for (std::int64_t b = 0; b < s.n; ++b)
                for (std::int64_t oh = 0; oh < OH; ++oh)
                  for (std::int64_t ow = 0; ow < OW; ++ow) {
                    const std::int64_t h = oh * s.stride + i - s.top, w = ow * s.stride + j - s.left;
                    if (h < 0 || h >= s.h || w < 0 || w >= s.w) continue;
                    const double term = double(xp[((b * s.h + h) * s.w + w) * s.c + ci]) *
                                        dyp[((b * OH + oh) * OW + ow) * s.oc + o];
                    sum += term;
                    magnitude += std::abs(term);
                  }
              INFO("kernel entry " << i << " " << j << " " << ci << " " << o);
              REQUIRE(std::abs(dkernel[static_cast<std::size_t>(((i * s.kw + j) * s.c + ci) * s.oc + o)] - sum) <=
                      1e-4 * magnitude + 1e-5);
            }
      for (std::int64_t o = 0; o < s.oc; ++o) {
        double sum = 0;
        for (std::int64_t p = 0; p < s.n * OH * OW; ++p) sum += dyp[p * s.oc + o];
        REQUIRE(dbias[static_cast<std::size_t>(o)] == Approx(sum).margin(1e-3));
      }
    }
  }
}
