// The transposed convolutions of keras/kernels/convolution.hpp, on oneDNN's deconvolution.
#include "keras/kernels/conv_descs.hpp"
#include "keras/kernels/convolution.hpp"

namespace keras::kernels {
namespace {

struct Deconvolution {
  using Fwd = dnnl::deconvolution_forward;
  using BwdData = dnnl::deconvolution_backward_data;
  using BwdWeights = dnnl::deconvolution_backward_weights;
  static constexpr auto algorithm = dnnl::algorithm::deconvolution_direct;
  static dnnl::memory::desc weights_md(const ConvArgs& a) { return conv_detail::deconv_weights_md(a); }
};
using Impl = conv_detail::Family<Deconvolution>;

}  // namespace

void conv_transpose_forward(const float* x, const float* kernel, const float* bias, float* y, const ConvArgs& a,
                            Eltwise act) {
  Impl::forward(x, kernel, bias, y, a, act);
}

void conv_transpose_backward_data(const float* dy, const float* kernel, float* dx, const ConvArgs& a) {
  Impl::backward_data(dy, kernel, dx, a);
}

void conv_transpose_backward_weights(const float* x, const float* dy, float* dkernel, float* dbias,
                                     const ConvArgs& a) {
  Impl::backward_weights(x, dy, dkernel, dbias, a);
}

}  // namespace keras::kernels
