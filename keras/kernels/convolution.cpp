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

struct Convolution {
  using Fwd = dnnl::convolution_forward;
  using BwdData = dnnl::convolution_backward_data;
  using BwdWeights = dnnl::convolution_backward_weights;
  static constexpr auto algorithm = dnnl::algorithm::convolution_direct;
  static dnnl::memory::desc weights_md(const ConvArgs& a) { return conv_detail::conv_weights_md(a); }
};
using Impl = conv_detail::Family<Convolution>;

}  // namespace

bool winograd_fits(const ConvArgs& a, bool inference) { return winograd_enabled() && own_winograd_fits(a, inference); }

void conv_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a, Eltwise act) {
  if ((act == Eltwise::linear || act == Eltwise::relu) && winograd_fits(a))
    return winograd_forward(x, kernel, bias, y, a, act == Eltwise::relu);
  Impl::forward(x, kernel, bias, y, a, act);
}

void conv_inference(const float* x, const float* kernel, std::uint64_t version, const float* bias,
                    const float* residual, float* y, const ConvArgs& a, Eltwise act) {
  if ((act == Eltwise::linear || act == Eltwise::relu) && winograd_fits(a, true))
    return winograd_inference(x, kernel, version, bias, residual, y, a, act == Eltwise::relu);
  Impl::inference(x, kernel, version, bias, residual, y, a, act);
}

void conv_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
  if (winograd_fits(a)) return winograd_backward_data(dy, kernel, dx, a);
  Impl::backward_data(dy, kernel, dx, a);
}

void conv_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias, const ConvArgs& a) {
  if (winograd_fits(a)) return winograd_backward_weights(x, dy, dkernel, dbias, a);
  if (conv_weight_gradient_fits(a)) return conv_weight_gradient(x, dy, dkernel, dbias, a);
  Impl::backward_weights(x, dy, dkernel, dbias, a);
}

}  // namespace keras::kernels
