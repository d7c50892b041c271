#include "keras/ops/convolution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/kernels/convolution.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/pooling.hpp"

namespace keras::ops {

std::string size2_str(Size2 s) { return fmt::format("({}, {})", s[0], s[1]); }
namespace {

using kernels::Eltwise;


Tensor as_float(const Tensor& t, const char* op) {
  if (!t.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

void check_positive(Size2 s, const char* what, const char* op) {
  if (s[0] <= 0 || s[1] <= 0)
    throw ValueError(std::string(op) + ": `" + what + "` must be positive integers, got " + size2_str(s));
}

void check_image(const Tensor& x, const char* op) {
  if (x.ndim() != 4)
    throw ValueError(std::string(op) + " expects a 4-D input (batch, height, width, channels), got shape " +
                     shape_str(x.shape()));
}

// Output length along one axis, rejecting windows larger than a "valid" input.
std::int64_t output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                           std::int64_t dilation, const char* op, const Shape& shape) {
  const auto out = conv_output_length(in, k, stride, padding, dilation);
  if (out <= 0)
    throw ValueError(std::string(op) + ": the window of " + std::to_string((k - 1) * dilation + 1) +
                     " (dilation included) is larger than the input dimension " + std::to_string(in) + " of shape " +
                     shape_str(shape) + " under \"valid\" padding; use padding=\"same\" or a smaller window");
  return out;
}

// dz = g * act'(z), from the activation's output y.
Tensor activation_grad(const Tensor& g, const Tensor& y, Eltwise act) {
  if (act == Eltwise::linear) return g;
  Tensor dz = Tensor::empty(g.shape());
  kernels::fused_activation_backward(act, y.data<float>(), g.data<float>(), dz.data<float>(), g.size());
  return dz;
}

Tensor pool2d(kernels::Pooling kind, const Tensor& input, Size2 pool, Size2 strides, const std::string& padding0) {
  const char* op = kind == kernels::Pooling::max ? "max_pool2d" : "avg_pool2d";
  Tensor x = as_float(input, op);
  check_image(x, op);
  check_positive(pool, "pool_size", op);
  check_positive(strides, "strides", op);
  const std::string padding = normalize_padding(padding0, op);
  const auto ph = conv_padding(x.dim(1), pool[0], strides[0], padding);
  const auto pw = conv_padding(x.dim(2), pool[1], strides[1], padding);
  const kernels::Pool2DArgs a{.n = x.dim(0), .h = x.dim(1), .w = x.dim(2), .c = x.dim(3), .kh = pool[0],
                              .kw = pool[1],
                              .oh = output_length(x.dim(1), pool[0], strides[0], padding, 1, op, x.shape()),
                              .ow = output_length(x.dim(2), pool[1], strides[1], padding, 1, op, x.shape()),
                              .stride_h = strides[0], .stride_w = strides[1], .pad_top = ph.before,
                              .pad_left = pw.before, .pad_bottom = ph.after, .pad_right = pw.after};
  Tensor y = Tensor::empty({a.n, a.oh, a.ow, a.c});
  const bool record = autodiff::recording();
  Tensor workspace;  // bytes for max pooling's backward, held in a float tensor
  if (record && kind == kernels::Pooling::max) {
    const auto bytes = static_cast<std::int64_t>(kernels::pool2d_workspace_bytes(kind, a));
    workspace = Tensor::empty({(bytes + 3) / 4});
  }
  kernels::pool2d_forward(kind, x.data<float>(), y.data<float>(),
                          workspace.defined() ? workspace.data<float>() : nullptr, a);
  if (record)
    autodiff::record(y, {x}, [kind, a, workspace](const Tensor& g, const std::vector<bool>&) {
      Tensor dx = Tensor::empty({a.n, a.h, a.w, a.c});
      kernels::pool2d_backward(kind, g.data<float>(), dx.data<float>(),
                               workspace.defined() ? workspace.data<float>() : nullptr, a);
      return std::vector<Tensor>{dx};
    });
  return y;
}

}  // namespace

std::string normalize_padding(const std::string& padding, const std::string& who) {
  std::string p = padding;
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (p != "valid" && p != "same")
    throw ValueError(who + ": the `padding` argument must be \"valid\" or \"same\". Received: padding=" + padding);
  return p;
}

std::int64_t conv_output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                                std::int64_t dilation) {
  if (in < 0) return -1;
  const auto eff = (k - 1) * dilation + 1;
  if (padding == "same") return (in + stride - 1) / stride;
  return in < eff ? 0 : (in - eff) / stride + 1;
}

Padding1D conv_padding(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                       std::int64_t dilation) {
  if (padding != "same") return {};
  const auto out = (in + stride - 1) / stride;
  const auto total = std::max<std::int64_t>((out - 1) * stride + (k - 1) * dilation + 1 - in, 0);
  return {total / 2, total - total / 2};
}

Tensor conv2d(const Tensor& input, const Tensor& kernel0, const Tensor& bias0, Size2 strides,
              const std::string& padding0, Size2 dilation, Eltwise act) {
  Tensor x = as_float(input, "conv2d");
  Tensor kernel = as_float(kernel0, "conv2d");
  Tensor bias = bias0.defined() ? as_float(bias0, "conv2d") : Tensor();
  check_image(x, "conv2d");
  if (kernel.ndim() != 4 || kernel.dim(2) != x.dim(3))
    throw ValueError("conv2d: kernel of shape " + shape_str(kernel.shape()) + " does not fit input of shape " +
                     shape_str(x.shape()) + "; the kernel must be [kh, kw, in_channels, filters] with in_channels = " +
                     std::to_string(x.dim(3)));
  if (bias.defined() && (bias.ndim() != 1 || bias.dim(0) != kernel.dim(3)))
    throw ValueError("conv2d: bias of shape " + shape_str(bias.shape()) + " does not match kernel " +
                     shape_str(kernel.shape()));
  check_positive(strides, "strides", "conv2d");
  check_positive(dilation, "dilation_rate", "conv2d");
  if ((strides[0] > 1 || strides[1] > 1) && (dilation[0] > 1 || dilation[1] > 1))
    throw ValueError("conv2d: `strides` > 1 not supported in conjunction with `dilation_rate` > 1. Received: strides=" +
                     size2_str(strides) + " and dilation_rate=" + size2_str(dilation));
  const std::string padding = normalize_padding(padding0, "conv2d");
  const auto ph = conv_padding(x.dim(1), kernel.dim(0), strides[0], padding, dilation[0]);
  const auto pw = conv_padding(x.dim(2), kernel.dim(1), strides[1], padding, dilation[1]);
  const kernels::Conv2DArgs a{
      .n = x.dim(0), .h = x.dim(1), .w = x.dim(2), .c = x.dim(3), .kh = kernel.dim(0), .kw = kernel.dim(1),
      .oc = kernel.dim(3),
      .oh = output_length(x.dim(1), kernel.dim(0), strides[0], padding, dilation[0], "conv2d", x.shape()),
      .ow = output_length(x.dim(2), kernel.dim(1), strides[1], padding, dilation[1], "conv2d", x.shape()),
      .stride_h = strides[0], .stride_w = strides[1], .dilation_h = dilation[0], .dilation_w = dilation[1],
      .pad_top = ph.before, .pad_left = pw.before, .pad_bottom = ph.after, .pad_right = pw.after};
  Tensor y = Tensor::empty({a.n, a.oh, a.ow, a.oc});
  kernels::conv2d_forward(x.data<float>(), kernel.data<float>(), bias.defined() ? bias.data<float>() : nullptr,
                          y.data<float>(), a, act);
  if (autodiff::recording()) {
    std::vector<Tensor> inputs{x, kernel};
    if (bias.defined()) inputs.push_back(bias);
    autodiff::record(y, inputs, [x, kernel, y, act, a](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(needs.size());
      Tensor dz = activation_grad(g, y, act);
      if (needs[0]) {
        grads[0] = Tensor::empty(x.shape());
        kernels::conv2d_backward_data(dz.data<float>(), kernel.data<float>(), grads[0].data<float>(), a);
      }
      const bool want_bias = needs.size() > 2 && needs[2];
      if (needs[1] || want_bias) {
        Tensor dk = Tensor::empty(kernel.shape());
        Tensor db = want_bias ? Tensor::empty({a.oc}) : Tensor();
        kernels::conv2d_backward_weights(x.data<float>(), dz.data<float>(), dk.data<float>(),
                                         want_bias ? db.data<float>() : nullptr, a);
        if (needs[1]) grads[1] = dk;
        if (want_bias) grads[2] = db;
      }
      return grads;
    });
  }
  return y;
}

Tensor max_pool2d(const Tensor& x, Size2 pool, Size2 strides, const std::string& padding) {
  return pool2d(kernels::Pooling::max, x, pool, strides, padding);
}

Tensor avg_pool2d(const Tensor& x, Size2 pool, Size2 strides, const std::string& padding) {
  return pool2d(kernels::Pooling::avg, x, pool, strides, padding);
}

}  // namespace keras::ops
