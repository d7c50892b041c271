#include "keras/kernels/convolution.hpp"

#include <cstdlib>
#include <string>

#include "keras/kernels/conv_descs.hpp"
#include "keras/kernels/conv_weight_gradient.hpp"
#include "keras/kernels/winograd.hpp"

namespace keras::kernels {
namespace {

bool winograd_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("KERAS_WINOGRAD");
    return !value || std::string(value) != "0";
  }();
  return enabled;
}

}  // namespace

bool winograd_fits(const ConvArgs& a) {
  // Training only (conv_inference stays direct). oneDNN's Winograd F(4x4, 3x3) kernels (AVX-512 only), with
  // their reorders from and to Keras's layout, against its direct ones on 3 x 3 layers at unit stride, 2
  // threads of a Zen 4 (ResNet-20's shapes, batch 128): 32 -> 32 channels over 16 x 16, 1.3-1.5x forward,
  // backward-data and backward-weights; 64 -> 64 over 8 x 8, 1.5-1.8x; 1.3-1.8x at batch 32 too; over 16
  // channels they lose (0.55-0.7x). On more threads than images they split the work poorly (forward, 2
  // threads, one image: 0.34-0.64x; from two images per thread: 1.26-1.8x). Their sums stray from the exact
  // ones by a few millionths of the largest value of each result (tests/layers/conv2d_test.cpp: 0.5-2.3e-6,
  // the direct kernels' 1e-9), far inside a training step's noise.
  // Below AVX-512: our own F(4 x 4, 3 x 3) kernels (winograd.hpp), with their own rule.
  if (!winograd_enabled()) return false;
  if (cpu_level() == CpuLevel::avx2) return own_winograd_fits(a);
  const int threads = omp_get_max_threads();
  if (cpu_level() != CpuLevel::avx512 || a.rank != 2 || a.groups != 1) return false;
  if (threads > 1 && a.n < 2 * threads) return false;
  for (int i = 0; i < 2; ++i)
    if (a.k[i] != 3 || a.stride[i] != 1 || a.dilation[i] != 1 || a.pad_l[i] > 1 || a.pad_r[i] > 1) return false;
  return a.c >= 32 && a.oc >= 32 && a.c % 16 == 0 && a.oc % 16 == 0;
}

namespace {

struct Convolution {
  using Fwd = dnnl::convolution_forward;
  using BwdData = dnnl::convolution_backward_data;
  using BwdWeights = dnnl::convolution_backward_weights;
  static constexpr auto direct = dnnl::algorithm::convolution_direct;
  static dnnl::algorithm algorithm_for(const ConvArgs& a) {
    return cpu_level() == CpuLevel::avx512 && winograd_fits(a) ? dnnl::algorithm::convolution_winograd : direct;
  }
  static dnnl::memory::desc weights_md(const ConvArgs& a) { return conv_detail::conv_weights_md(a); }
};
using Impl = conv_detail::Family<Convolution>;

// Whether our own Winograd kernels (AVX2) train this convolution.
bool own_winograd(const ConvArgs& a) { return cpu_level() == CpuLevel::avx2 && winograd_fits(a); }

}  // namespace

void conv_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a, Eltwise act) {
  if ((act == Eltwise::linear || act == Eltwise::relu) && own_winograd(a))
    return winograd_forward(x, kernel, bias, y, a, act == Eltwise::relu);
  Impl::forward(x, kernel, bias, y, a, act);
}

void conv_inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                    const float* residual, float* y, const ConvArgs& a, Eltwise act) {
  Impl::inference(x, kernel, version, bias, residual, y, a, act);
}

void conv_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
  if (own_winograd(a)) return winograd_backward_data(dy, kernel, dx, a);
  Impl::backward_data(dy, kernel, dx, a);
}

void conv_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  if (own_winograd(a)) return winograd_backward_weights(x, dy, dkernel, dbias, a);
  if (conv_weight_gradient_fits(a)) return conv_weight_gradient(x, dy, dkernel, dbias, a);
  Impl::backward_weights(x, dy, dkernel, dbias, a);
}

void conv_backward(const float* x, const float* dy, const float* kernel, float* dx, float* dkernel, float* dbias,
                   const ConvArgs& a) {
  if (own_winograd(a)) {
    winograd_backward_data(dy, kernel, dx, a);
    return winograd_backward_weights(x, dy, dkernel, dbias, a);
  }
  if (!conv_weight_gradient_fits(a)) return Impl::backward(x, dy, kernel, dx, dkernel, dbias, a);
  Impl::backward_data(dy, kernel, dx, a);
  conv_weight_gradient(x, dy, dkernel, dbias, a);
}

}  // namespace keras::kernels
