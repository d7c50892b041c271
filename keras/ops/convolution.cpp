#include "keras/ops/convolution.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/convolution.hpp"
#include "keras/kernels/kept_copies.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/ops/conv_checks.hpp"
#include "keras/ops/eltwise_derivative.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {

std::string size2_str(Size2 s) { return fmt::format("({}, {})", s[0], s[1]); }
std::string sizes_str(const Sizes& s) {
  return s.size() == 1 ? fmt::format("({},)", s[0]) : fmt::format("({})", fmt::join(s, ", "));
}

std::string normalize_padding(const std::string& padding, const std::string& who, bool allow_causal) {
  std::string p = padding;
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (p == "causal" && allow_causal) return p;
  if (p != "valid" && p != "same")
    throw ValueError(fmt::format("{}: the `padding` argument must be \"valid\"{} or \"same\". Received: padding={}", who,
                                 allow_causal ? ", \"causal\"" : "", padding));
  return p;
}

std::int64_t conv_output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                                std::int64_t dilation) {
  if (in < 0) return -1;
  const auto eff = (k - 1) * dilation + 1;
  if (padding == "same" || padding == "causal") return (in + stride - 1) / stride;
  return in < eff ? 0 : (in - eff) / stride + 1;
}

Padding1D conv_padding(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                       std::int64_t dilation) {
  if (padding == "causal") return {(k - 1) * dilation, 0};
  if (padding != "same") return {};
  const auto out = (in + stride - 1) / stride;
  const auto total = std::max<std::int64_t>((out - 1) * stride + (k - 1) * dilation + 1 - in, 0);
  return {total / 2, total - total / 2};
}

std::int64_t deconv_output_length(std::int64_t in, std::int64_t k, std::int64_t stride, const std::string& padding,
                                  std::int64_t output_padding, std::int64_t dilation) {
  if (in < 0) return -1;
  const auto eff = (k - 1) * dilation + 1;
  if (output_padding < 0)
    return padding == "same" ? in * stride : in * stride + std::max<std::int64_t>(eff - stride, 0);
  const auto pad = padding == "same" ? eff / 2 : 0;
  return (in - 1) * stride + eff - 2 * pad + output_padding;
}

namespace {

using kernels::Eltwise;
using conv_checks::as_float;
using conv_checks::conv_args;

// dz = g * act'(z), from the activation's output y.
Tensor activation_grad(const Tensor& g, const Tensor& y, Eltwise act) {
  if (act == Eltwise::linear) return g;
  Tensor dz = Tensor::empty(g.shape());
  kernels::fused_activation_backward(act, y.data<float>(), g.data<float>(), dz.data<float>(), g.size());
  if (jit::tracing())  // a compiled function tracing the gradient pass
    jit::capture("activation gradient", {g, y}, {dz}, [=] {
      kernels::fused_activation_backward(act, y.data<float>(), g.data<float>(), dz.data<float>(), g.size());
    });
  return dz;
}

Shape output_shape(const kernels::ConvArgs& a) {
  Shape s{a.n};
  for (std::int64_t i = 0; i < a.rank; ++i) s.push_back(a.out[i]);
  s.push_back(a.oc);
  return s;
}

using Run = void (*)(const float*, const float*, const float*, float*, const kernels::ConvArgs&, Eltwise);
using RunData = void (*)(const float*, const float*, float*, const kernels::ConvArgs&);
using RunWeights = void (*)(const float*, const float*, float*, float*, const kernels::ConvArgs&);

// The three kernels of one kind of convolution: F(x, kernel), and its adjoints with respect to x
// (backward data) and kernel (backward weights). F is bilinear, so each adjoint's gradient is F or the
// other adjoint: conv, conv_transpose and their gradients are differentiable any number of times.
struct ConvKernels {
  Run forward;
  RunData backward_data;
  RunWeights backward_weights;
  // Convolution only: against a layer's kernel F may run kernels::packed_conv, and with nothing recording
  // (predict, evaluate) oneDNN's inference primitive, which keeps its reordered copy of a layer's kernel.
  bool packs = false;
};

Tensor run(const Tensor& x, const Tensor& kernel, const Tensor& bias, const kernels::ConvArgs& a, Eltwise act,
           ConvKernels k);
Tensor grad_kernel(const Tensor& x, const Tensor& dz, const Shape& kernel_shape, const kernels::ConvArgs& a,
                   ConvKernels k);

// d loss / d x of F(x, kernel) given dz = d loss / d F (recorded: an outer tape differentiates it).
Tensor grad_input(const Tensor& dz, const Tensor& kernel, const Shape& x_shape, const kernels::ConvArgs& a,
                  ConvKernels k) {
  Tensor dx = Tensor::empty(x_shape);
  k.backward_data(dz.data<float>(), kernel.data<float>(), dx.data<float>(), a);
  if (autodiff::recording())
    autodiff::record(dx, {dz, kernel}, [dz, kernel, a, k](const Tensor& u, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(2);  // <u, dx> = <F(u, kernel), dz>
      if (needs[0]) grads[0] = run(u, kernel, Tensor(), a, Eltwise::linear, k);
      if (needs[1]) grads[1] = grad_kernel(u, dz, kernel.shape(), a, k);
      return grads;
    }, {.name = "convolution input gradient", .differentiable_backward = true});
  return dx;
}

// d loss / d kernel of F(x, kernel) given dz (recorded).
Tensor grad_kernel(const Tensor& x, const Tensor& dz, const Shape& kernel_shape, const kernels::ConvArgs& a,
                   ConvKernels k) {
  Tensor dk = Tensor::empty(kernel_shape);
  k.backward_weights(x.data<float>(), dz.data<float>(), dk.data<float>(), nullptr, a);
  if (autodiff::recording())
    autodiff::record(dk, {x, dz}, [x, dz, a, k](const Tensor& v, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(2);  // <v, dk> = <F(x, v), dz>
      if (needs[0]) grads[0] = grad_input(dz, v, x.shape(), a, k);
      if (needs[1]) grads[1] = run(x, v, Tensor(), a, Eltwise::linear, k);
      return grads;
    }, {.name = "convolution kernel gradient", .differentiable_backward = true});
  return dk;
}

// Runs the forward kernel and records the backward ones.
Tensor run(const Tensor& x, const Tensor& kernel, const Tensor& bias, const kernels::ConvArgs& a, Eltwise act,
           ConvKernels k) {
  Tensor y = Tensor::empty(output_shape(a));
  // Against a layer's kernel, training and predicting alike (traced steps too), multiply by its packed copy,
  // repacked when the kernel's version changes: once per training step; but where Winograd's kernels serve,
  // they run (k.forward while training, kernels::conv_inference otherwise, which keeps their transform).
  const bool winograd = (act == Eltwise::linear || act == Eltwise::relu) && k.packs &&
                        kernels::winograd_fits(a, !autodiff::recording());
  const bool packed = k.packs && kernel.is_variable() && kernels::packed_conv_fits(a) && !winograd;
  const bool inference = k.packs && !packed && !autodiff::recording();
  auto forward = [=] {
    const float* b = bias.defined() ? bias.data<float>() : nullptr;
    if (packed)
      kernels::packed_conv(x.data<float>(), kernel.data<float>(), kernel.version(), nullptr, b, nullptr, y.data<float>(),
                           a, act);
    else if (inference)
      kernels::conv_inference(x.data<float>(), kernel.data<float>(), kernel.is_variable() ? kernel.version() : 0, b,
                              nullptr, y.data<float>(), a, act);
    else
      k.forward(x.data<float>(), kernel.data<float>(), b, y.data<float>(), a, act);
  };
  forward();
  if (jit::tracing()) jit::capture("convolution", {x, kernel, bias}, {y}, forward);
  if (!autodiff::recording()) return y;
  std::vector<Tensor> inputs{x, kernel};
  if (bias.defined()) inputs.push_back(bias);
  autodiff::record(y, inputs, [=](const Tensor& g, const std::vector<bool>& needs) {
    std::vector<Tensor> grads(needs.size());
    const bool want_bias = needs.size() > 2 && needs[2];
    if (autodiff::recording()) {  // an outer tape differentiates this backward pass: recorded ops
      const Tensor dz = detail::fused_activation_grad(act, g, y);
      if (needs[0]) grads[0] = grad_input(dz, kernel, x.shape(), a, k);
      if (needs[1]) grads[1] = grad_kernel(x, dz, kernel.shape(), a, k);
      if (want_bias) {
        std::vector<int> outer(static_cast<std::size_t>(dz.ndim() - 1));
        for (int i = 0; i < dz.ndim() - 1; ++i) outer[static_cast<std::size_t>(i)] = i;
        grads[2] = sum(dz, outer);
      }
      return grads;
    }
    Tensor dz = activation_grad(g, y, act);
    if (needs[0]) {
      const Tensor dx = grads[0] = Tensor::empty(x.shape());
      k.backward_data(dz.data<float>(), kernel.data<float>(), dx.data<float>(), a);
      if (jit::tracing())
        jit::capture("convolution input gradient", {dz, kernel}, {dx},
                     [=] { k.backward_data(dz.data<float>(), kernel.data<float>(), dx.data<float>(), a); });
    }
    if (needs[1] || want_bias) {
      Tensor dk = Tensor::empty(kernel.shape());
      Tensor db = want_bias ? Tensor::empty({a.oc}) : Tensor();
      k.backward_weights(x.data<float>(), dz.data<float>(), dk.data<float>(), want_bias ? db.data<float>() : nullptr,
                         a);
      if (jit::tracing())
        jit::capture("convolution kernel gradient", {x, dz}, {dk, db}, [=] {
          k.backward_weights(x.data<float>(), dz.data<float>(), dk.data<float>(),
                             db.defined() ? db.data<float>() : nullptr, a);
        });
      if (needs[1]) grads[1] = dk;
      if (want_bias) grads[2] = db;
    }
    return grads;
  }, {.name = "convolution", .differentiable_backward = true});
  return y;
}

// (conv(x, k) + b) * s + h = conv(x, k) * s + (b * s + h), s and h per output channel: the bias b * s + h.
Tensor folded_bias(const Tensor& bias, const Epilogue& e) {
  const auto oc = static_cast<std::int64_t>(e.scale.size());
  Tensor shifted = Tensor::empty({oc});
  float* sb = shifted.data<float>();
  for (std::int64_t o = 0; o < oc; ++o) sb[o] = (bias.defined() ? bias.data<float>()[o] * e.scale[o] : 0.f) + e.shift[o];
  return shifted;
}

// kernel * scale per output channel (the last axis).
Tensor scaled_kernel(const Tensor& kernel, const std::vector<float>& scale) {
  Tensor folded = Tensor::empty(kernel.shape());
  const float* k = kernel.data<float>();
  float* f = folded.data<float>();
  const auto oc = static_cast<std::int64_t>(scale.size()), rows = kernel.size() / oc;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t o = 0; o < oc; ++o) f[r * oc + o] = k[r * oc + o] * scale[o];
  return folded;
}

// A layer's kernel with a fused affine step folded in, kept per thread while the kernel's version and the
// scales stay the same: predict folds (and oneDNN reorders, kernels::conv_inference) each layer's kernel once
// per change of its weights or of the BatchNormalization statistics after it, not on every call. At most
// 256 MiB of folded kernels per thread; past that the copies are dropped.
const Tensor& kept_scaled_kernel(const Tensor& kernel, const std::vector<float>& scale) {
  struct Kept {
    std::uint64_t version = 0;
    std::vector<float> scale;
    Tensor folded;
  };
  thread_local kernels::KeptCopies<Kept> kept(std::size_t{256} << 20);
  return kept
      .get(
          kernel.data<float>(),
          [&](const Kept& e) { return e.version == kernel.version() && e.scale == scale && e.folded.shape() == kernel.shape(); },
          sizeof(float) * static_cast<std::size_t>(kernel.size()),
          [&] { return Kept{kernel.version(), scale, scaled_kernel(kernel, scale)}; })
      .folded;
}

}  // namespace

Tensor conv(const Tensor& input, const Tensor& kernel0, const Tensor& bias0, const Sizes& strides,
            const std::string& padding, const Sizes& dilation, std::int64_t groups, Eltwise act) {
  Tensor x = as_float(input, "conv");
  Tensor kernel = as_float(kernel0, "conv");
  Tensor bias = bias0.defined() ? as_float(bias0, "conv") : Tensor();
  return run(x, kernel, bias, conv_args(x, kernel, bias, strides, padding, dilation, groups), act,
             {kernels::conv_forward, kernels::conv_backward_data, kernels::conv_backward_weights, true});
}

Tensor conv_inference(const Tensor& input, const Tensor& kernel0, const Tensor& bias0, const Sizes& strides,
                      const std::string& padding, const Sizes& dilation, std::int64_t groups, const Epilogue& e) {
  Tensor x = as_float(input, "conv");
  Tensor kernel = as_float(kernel0, "conv");
  Tensor bias = bias0.defined() ? as_float(bias0, "conv") : Tensor();
  const kernels::ConvArgs a = conv_args(x, kernel, bias, strides, padding, dilation, groups);
  if (!e.scale.empty() && (static_cast<std::int64_t>(e.scale.size()) != a.oc || e.shift.size() != e.scale.size()))
    throw ValueError(fmt::format("conv: a fused affine step of {} channels does not fit {} filters", e.scale.size(),
                                 a.oc));
  const Tensor residual = e.residual.defined() ? as_float(e.residual, "conv") : Tensor();
  if (residual.defined() && residual.shape() != output_shape(a))
    throw ValueError("conv: a fused residual of shape " + shape_str(residual.shape()) + " does not match the output " +
                     shape_str(output_shape(a)));
  const bool winograd = (e.activation == Eltwise::linear || e.activation == Eltwise::relu) &&
                        kernels::winograd_fits(a, true);
  if (kernel.is_variable() && kernels::packed_conv_fits(a) && !winograd) {
    // The layer's kernel packed once; the affine step scales the sums instead of the kernel.
    const Tensor shift = e.scale.empty() ? bias : folded_bias(bias, e);
    Tensor y = Tensor::empty(output_shape(a));
    kernels::packed_conv(x.data<float>(), kernel.data<float>(), kernel.version(), e.scale.empty() ? nullptr : e.scale.data(),
                         shift.defined() ? shift.data<float>() : nullptr,
                         residual.defined() ? residual.data<float>() : nullptr, y.data<float>(), a, e.activation);
    return y;
  }
  // A layer's kernel, or its folded copy kept under it, keeps its version from call to call: oneDNN's
  // reordered copy of it is kept too. Any other kernel is reordered on every call (version 0).
  std::uint64_t version = kernel.is_variable() ? kernel.version() : 0;
  if (!e.scale.empty()) {  // the affine step folded into the kernel: conv(x, k * s) + (b * s + h)
    kernel = kernel.is_variable() ? kept_scaled_kernel(kernel, e.scale) : scaled_kernel(kernel, e.scale);
    version = version ? kernel.version() : 0;
    bias = folded_bias(bias, e);
  }
  Tensor y = Tensor::empty(output_shape(a));
  kernels::conv_inference(x.data<float>(), kernel.data<float>(), version, bias.defined() ? bias.data<float>() : nullptr,
                          residual.defined() ? residual.data<float>() : nullptr, y.data<float>(), a, e.activation);
  return y;
}

Tensor conv_transpose(const Tensor& input, const Tensor& kernel0, const Tensor& bias0, const Sizes& strides0,
                      const std::string& padding0, const Sizes& output_padding, const Sizes& dilation0,
                      Eltwise act) {
  const char* op = "conv_transpose";
  Tensor x = as_float(input, op);
  Tensor kernel = as_float(kernel0, op);
  Tensor bias = bias0.defined() ? as_float(bias0, op) : Tensor();
  const auto rank = conv_checks::spatial_rank(x, op);
  const Sizes strides = conv_checks::per_axis(strides0, rank, "strides", op);
  const Sizes dilation = conv_checks::per_axis(dilation0, rank, "dilation_rate", op);
  if (!output_padding.empty() && static_cast<std::int64_t>(output_padding.size()) != rank)
    throw ValueError(fmt::format("conv_transpose: `output_padding` needs {} values, got {}", rank,
                                 sizes_str(output_padding)));
  if (kernel.ndim() != rank + 2 || kernel.dim(rank + 1) != x.dim(-1))
    throw ValueError(fmt::format(
        "conv_transpose: kernel of shape {} does not fit input of shape {}; the kernel must be [k..., filters, "
        "in_channels = {}]",
        shape_str(kernel.shape()), shape_str(x.shape()), x.dim(-1)));
  if (bias.defined() && (bias.ndim() != 1 || bias.dim(0) != kernel.dim(rank)))
    throw ValueError("conv_transpose: bias of shape " + shape_str(bias.shape()) + " does not match kernel " +
                     shape_str(kernel.shape()));
  const std::string padding = normalize_padding(padding0, op);
  kernels::ConvArgs a{.rank = rank, .n = x.dim(0), .c = x.dim(-1), .oc = kernel.dim(rank)};
  for (std::int64_t i = 0; i < rank; ++i) {
    const auto op_i = output_padding.empty() ? -1 : output_padding[i];
    if (!output_padding.empty() && (op_i < 0 || op_i >= std::max(strides[i], dilation[i])))
      throw ValueError(fmt::format("conv_transpose: `output_padding` {} must be non-negative and smaller than the "
                                   "strides {} (or the dilation rate)", sizes_str(output_padding), sizes_str(strides)));
    a.in[i] = x.dim(i + 1);
    a.k[i] = kernel.dim(i);
    a.stride[i] = strides[i];
    a.dilation[i] = dilation[i];
    a.out[i] = deconv_output_length(a.in[i], a.k[i], strides[i], padding, op_i, dilation[i]);
    // TensorFlow pads as the convolution from the output back to the input would: "same" centres the
    // window, the rest of the output (when output_padding asks for more) only gets the bias.
    const auto covered = (a.in[i] - 1) * strides[i] + (a.k[i] - 1) * dilation[i] + 1;
    a.pad_l[i] = padding == "same" ? std::max<std::int64_t>(covered - a.out[i], 0) / 2 : 0;
    a.pad_r[i] = covered - a.out[i] - a.pad_l[i];
    if (a.out[i] <= 0)
      throw ValueError("conv_transpose: empty output for input of shape " + shape_str(x.shape()));
  }
  return run(x, kernel, bias, a, act,
             {kernels::conv_transpose_forward, kernels::conv_transpose_backward_data,
              kernels::conv_transpose_backward_weights});
}

Tensor conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias, Size2 strides, const std::string& padding,
              Size2 dilation, Eltwise act) {
  if (x.defined() && x.ndim() != 4)
    throw ValueError("conv2d expects a 4-D input (batch, height, width, channels), got shape " + shape_str(x.shape()));
  return conv(x, kernel, bias, {strides[0], strides[1]}, padding, {dilation[0], dilation[1]}, 1, act);
}

}  // namespace keras::ops
