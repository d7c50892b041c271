#include "keras/ops/conv_max_pool.hpp"

#include <cstdint>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/conv_max_pool.hpp"
#include "keras/ops/conv_checks.hpp"

namespace keras::ops {
namespace {

std::uint8_t* bytes(const Tensor& t) { return reinterpret_cast<std::uint8_t*>(t.data<float>()); }

// d loss / d (x, kernel, bias) from g = d loss / d y: the sums' gradient dz, then the convolution's backward
// data and weights kernels (which also sum the bias gradient). Without dx (an image's first layer, the usual
// case) and on our weights kernel, dz is never stored: that kernel unpools each band of rows as it goes.
std::vector<Tensor> backward(const Tensor& g, const std::vector<bool>& needs, const Tensor& x, const Tensor& kernel,
                             const Tensor& y, const Tensor& which, const kernels::ConvArgs& a, bool relu) {
  std::vector<Tensor> grads(needs.size());
  if (needs[0]) grads[0] = Tensor::empty(x.shape());
  if (needs[1]) grads[1] = Tensor::empty(kernel.shape());
  if (needs.size() > 2 && needs[2]) grads[2] = Tensor::empty({a.oc});
  const Tensor dx = grads[0], db = needs.size() > 2 ? grads[2] : Tensor();
  // The weights kernel writes the kernel's gradient too, into scratch where only the bias's is asked for.
  const Tensor dk = grads[1].defined() || !db.defined() ? grads[1] : Tensor::empty(kernel.shape());
  const bool banded = !dx.defined() && dk.defined() && kernels::unpooled_weight_gradient_fits(a);
  const Tensor dz = banded ? Tensor() : Tensor::empty({a.n, a.out[0], a.out[1], a.oc});
  auto run = [=] {
    float* const dk_out = dk.defined() ? dk.data<float>() : nullptr;
    float* const db_out = db.defined() ? db.data<float>() : nullptr;
    if (banded)
      return kernels::unpooled_weight_gradient(g.data<float>(), y.data<float>(), bytes(which), x.data<float>(), dk_out,
                                               db_out, a, relu);
    kernels::max_pool_2x2_unpool(g.data<float>(), y.data<float>(), bytes(which), dz.data<float>(), a, relu);
    if (dx.defined()) kernels::conv_backward_data(dz.data<float>(), kernel.data<float>(), dx.data<float>(), a);
    if (dk_out) kernels::conv_backward_weights(x.data<float>(), dz.data<float>(), dk_out, db_out, a);
  };
  run();
  if (jit::tracing())  // a compiled function tracing the gradient pass
    jit::capture("convolution and max pooling gradient", {g, y, which, x, kernel}, {dz, dx, dk, db}, run);
  return grads;
}

}  // namespace

Tensor conv_max_pool(const Tensor& input, const Tensor& kernel0, const Tensor& bias0, const Sizes& strides,
                     const std::string& padding, const Sizes& dilation, std::int64_t groups, bool relu) {
  if (input.dtype() != DType::float32 || input.ndim() != 4) return Tensor();
  const Tensor x = input;
  const Tensor kernel = conv_checks::as_float(kernel0, "conv");
  const Tensor bias = bias0.defined() ? conv_checks::as_float(bias0, "conv") : Tensor();
  const kernels::ConvArgs a = conv_checks::conv_args(x, kernel, bias, strides, padding, dilation, groups);
  if (!kernels::conv_max_pool_fits(a)) return Tensor();
  const Tensor y = Tensor::empty({a.n, a.out[0] / 2, a.out[1] / 2, a.oc});
  const bool record = autodiff::recording();
  // For the backward pass: which window position won, a byte per value, held in a float tensor.
  const Tensor which = record ? Tensor::empty({(y.size() + 3) / 4}) : Tensor();
  auto forward = [=] {
    kernels::conv_max_pool(x.data<float>(), kernel.data<float>(), bias.defined() ? bias.data<float>() : nullptr,
                           y.data<float>(), which.defined() ? bytes(which) : nullptr, a, relu);
  };
  forward();
  if (jit::tracing()) jit::capture("convolution and max pooling", {x, kernel, bias}, {y, which}, forward);
  if (!record) return y;
  std::vector<Tensor> inputs{x, kernel};
  if (bias.defined()) inputs.push_back(bias);
  autodiff::record(y, inputs, [=](const Tensor& g, const std::vector<bool>& needs) {
    return backward(g, needs, x, kernel, y, which, a, relu);
  }, {.name = "convolution and max pooling"});
  return y;
}

}  // namespace keras::ops
