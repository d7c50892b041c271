#include "keras/kernels/convolution.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "keras/kernels/conv_descs.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/matmul.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::kernels {
namespace {

struct Convolution {
  using Fwd = dnnl::convolution_forward;
  using BwdData = dnnl::convolution_backward_data;
  using BwdWeights = dnnl::convolution_backward_weights;
  static constexpr auto algorithm = dnnl::algorithm::convolution_direct;
  static dnnl::memory::desc weights_md(const ConvArgs& a) { return conv_detail::conv_weights_md(a); }
};
using Impl = conv_detail::Family<Convolution>;

// Conv1D's weight gradient as matrix products over the input's windows (im2col): with channels_last
// input and a [k, c, oc] kernel, the window of output step t is k * c consecutive floats of x (zeros
// where it overhangs the padding), so dkernel [k * c, oc] = windows^T [k * c, n * out] * dy [n * out, oc].
// oneDNN 2.6's AVX2 backward-weights kernel for 1-D convolutions ran at a fifth of its matmul's speed
// (27 GFLOP/s against 129 for Conv1D(128 -> 128, k 5) over 200 steps, batch 64); AVX-512 keeps oneDNN's.
// The windows are copied for a few samples at a time (at most 4 Mi floats), each block accumulated into dkernel.
bool conv1d_weights_by_matmul(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  if (a.rank != 1 || a.groups != 1 || a.dilation[0] != 1 || cpu_level() == CpuLevel::avx512) return false;
  const std::int64_t n = a.n, c = a.c, oc = a.oc, len = a.in[0], out = a.out[0], k = a.k[0];
  const std::int64_t row = k * c, stride = a.stride[0], pad = a.pad_l[0];
  if (n * out == 0) return false;
  const std::int64_t block = std::clamp<std::int64_t>((std::int64_t{4} << 20) / (out * row), 1, n);
  std::vector<float> windows(static_cast<std::size_t>(block * out * row));
  for (std::int64_t b0 = 0; b0 < n; b0 += block) {
    const std::int64_t nb = std::min(block, n - b0);
    parallel_rows(nb * out, row, [&](std::int64_t r) {
      const std::int64_t b = b0 + r / out, start = (r % out) * stride - pad;
      float* dst = windows.data() + r * row;
      const float* src = x + b * len * c;
      if (start >= 0 && start + k <= len) {
        std::memcpy(dst, src + start * c, sizeof(float) * row);
        return;
      }
      for (std::int64_t j = 0; j < k; ++j) {
        const std::int64_t at = start + j;
        if (at >= 0 && at < len) std::memcpy(dst + j * c, src + at * c, sizeof(float) * c);
        else std::fill(dst + j * c, dst + (j + 1) * c, 0.0f);
      }
    });
    matmul(windows.data(), dy + b0 * out * oc, dkernel,
           {.m = row, .n = oc, .k = nb * out, .trans_a = true, .accumulate = b0 > 0});
  }
  if (dbias) {  // column sums of dy [n * out, oc], per-thread partials added in thread order
    const std::int64_t rows = n * out;
    std::fill(dbias, dbias + oc, 0.0f);
    const int threads = rows * oc < kParallelGrain ? 1 : omp_get_max_threads();
    std::vector<std::vector<float>> partial(static_cast<std::size_t>(threads),
                                            std::vector<float>(static_cast<std::size_t>(oc), 0.0f));
#pragma omp parallel num_threads(threads)
    {  // the team may be smaller than asked (nested regions): chunks follow the team actually running
      const std::int64_t t = omp_get_thread_num(), team = omp_get_num_threads(), chunk = (rows + team - 1) / team;
      float* __restrict acc = partial[static_cast<std::size_t>(t)].data();
      for (std::int64_t r = t * chunk; r < std::min(rows, (t + 1) * chunk); ++r) {
        const float* __restrict d = dy + r * oc;
        for (std::int64_t o = 0; o < oc; ++o) acc[o] += d[o];
      }
    }
    for (const auto& p : partial)
      for (std::int64_t o = 0; o < oc; ++o) dbias[o] += p[static_cast<std::size_t>(o)];
  }
  return true;
}

}  // namespace

void conv_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a, Eltwise act) {
  Impl::forward(x, kernel, bias, y, a, act);
}

void conv_inference(const float* x, const float* kernel, const float* bias, const float* residual, float* y,
                    const ConvArgs& a, Eltwise act) {
  Impl::inference(x, kernel, bias, residual, y, a, act);
}

void conv_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
  Impl::backward_data(dy, kernel, dx, a);
}

void conv_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  if (conv1d_weights_by_matmul(x, dy, dkernel, dbias, a)) return;
  Impl::backward_weights(x, dy, dkernel, dbias, a);
}

}  // namespace keras::kernels
