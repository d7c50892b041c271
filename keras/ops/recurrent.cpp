#include "keras/ops/recurrent.hpp"

#include <cstring>
#include <string>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/lstm_inference.hpp"
#include "keras/kernels/lstm_tokens.hpp"
#include "keras/ops/sequence.hpp"

namespace keras::ops {
namespace {

Tensor as_float(const Tensor& t) { return !t.defined() || t.dtype() == DType::float32 ? t : t.astype(DType::float32); }

void check_shape(const Tensor& t, const Shape& want, const char* what) {
  if (t.defined() && t.shape() != want)
    throw ValueError(std::string("rnn: ") + what + " has shape " + shape_str(t.shape()) + ", expected " +
                     shape_str(want));
}

// The bias in oneDNN's layout into b (zeros when the layer has none).
void dnnl_bias_into(const Tensor& bias, kernels::RnnCell cell, std::int64_t units, Tensor b) {
  if (!bias.defined()) std::memset(b.data<float>(), 0, b.nbytes());
  else if (cell == kernels::RnnCell::lbr_gru) kernels::lbr_gru_bias_from_keras(units, bias.data<float>(), b.data<float>());
  else std::memcpy(b.data<float>(), bias.data<float>(), b.nbytes());
}

// Part of a packed result, packed[offset : offset + size(shape)]: a view of it for inference, a
// differentiable copy under a tape or a trace (an LSTM(128)'s sequence at batch 32 and length 100, copied
// and left unused under return_sequences=False, took 1.9% of its predict's time; the view is about 1% faster
// under AVX2).
Tensor unpack(const Tensor& packed, std::int64_t offset, const Shape& shape) {
  if (!autodiff::recording() && !jit::tracing()) return packed.slice(offset, offset + shape_size(shape)).reshape(shape);
  Tensor out = Tensor::empty(shape);
  auto copy_out = [offset](const Tensor& packed, Tensor out) {
    std::memcpy(out.data<float>(), packed.data<float>() + offset, out.nbytes());
  };
  copy_out(packed, out);
  if (jit::tracing()) jit::capture("recurrent unpack", {packed}, {out}, [=] { copy_out(packed, out); });
  if (autodiff::recording()) {
    const auto total = packed.size();
    autodiff::record(out, {packed}, [total, offset](const Tensor& g, const std::vector<bool>&) {
      Tensor d = Tensor::empty({total});
      auto copy_in = [offset](const Tensor& g, Tensor d) {
        std::memset(d.data<float>(), 0, d.nbytes());
        std::memcpy(d.data<float>() + offset, g.data<float>(), g.nbytes());
      };
      copy_in(g, d);
      if (jit::tracing()) jit::capture("recurrent unpack gradient", {g}, {d}, [=] { copy_in(g, d); });
      return std::vector<Tensor>{d};
    }, {.name = "recurrent unpack"});
  }
  return out;
}

// `to` = x with its time axis reversed.
void reversed_into(const Tensor& x, Tensor to) {
  autodiff::NoGradScope no_grad;
  const Tensor r = reverse_time(x);
  std::memcpy(to.data<float>(), r.data<float>(), to.nbytes());
}

}  // namespace

RnnOutputs rnn(const Tensor& x0, const Tensor& h00, const Tensor& c00, const Tensor& kernel0,
               const Tensor& recurrent0, const Tensor& bias0, kernels::RnnCell cell, bool go_backwards) {
  const Tensor x = as_float(x0), h0 = as_float(h00), c0 = as_float(c00), kernel = as_float(kernel0),
               recurrent = as_float(recurrent0), bias = as_float(bias0);
  if (!x.defined() || x.ndim() != 3)
    throw ValueError("rnn: expected an input shaped [batch, time, features], got " +
                     (x.defined() ? shape_str(x.shape()) : std::string("an undefined tensor")));
  const int G = kernels::rnn_gates(cell);
  const bool lstm = cell == kernels::RnnCell::lstm;
  kernels::RnnArgs a{x.dim(0), x.dim(1), x.dim(2), recurrent.dim(0), cell};
  const auto N = a.batch, T = a.time, U = a.units;
  check_shape(kernel, {a.input, G * U}, "kernel");
  check_shape(recurrent, {U, G * U}, "recurrent_kernel");
  check_shape(h0, {N, U}, "initial state h");
  check_shape(c0, {N, U}, "initial state c");
  if (cell == kernels::RnnCell::lbr_gru) check_shape(bias, {2, G * U}, "bias");
  else check_shape(bias, {G * U}, "bias");

  // Every buffer below is recomputed in place by a replay of a compiled function (keras::function).
  const Tensor xs = go_backwards ? Tensor::empty(x.shape()) : x;  // the input in processing order
  const Tensor b = Tensor::empty({kernels::rnn_bias_gates(cell) * U});
  // One buffer holds every output: sequence, then h, then c; views below carry the gradients back.
  const std::int64_t seq = N * T * U, state = N * U;
  const Tensor packed = Tensor::empty({seq + (lstm ? 2 : 1) * state});
  const bool training = autodiff::recording();
  const Tensor workspace =
      training ? Tensor::empty({static_cast<std::int64_t>(kernels::rnn_workspace_bytes(a))}, DType::uint8) : Tensor();
  // Inference against a layer's weights (no tape, no trace): an LSTM multiplies by their packed copies.
  const bool packs = !training && kernel.is_variable() && recurrent.is_variable() && kernels::lstm_inference_fits(a);
  auto forward = [=] {
    if (go_backwards) reversed_into(x, xs);
    dnnl_bias_into(bias, cell, U, b);
    float* p = packed.data<float>();
    const float* h0p = h0.defined() ? h0.data<float>() : nullptr;
    const float* c0p = c0.defined() ? c0.data<float>() : nullptr;
    if (packs)
      kernels::lstm_inference(a, xs.data<float>(), h0p, c0p, kernel.data<float>(), kernel.version(),
                              recurrent.data<float>(), recurrent.version(), b.data<float>(), p, p + seq, p + seq + state);
    else
      kernels::rnn_forward(a, xs.data<float>(), h0p, c0p, kernel.data<float>(), recurrent.data<float>(), b.data<float>(),
                           p, p + seq, lstm ? p + seq + state : nullptr, training ? workspace.raw_data() : nullptr);
    if (T == 0) std::memset(p, 0, packed.nbytes());
  };
  forward();
  if (jit::tracing())
    jit::capture("recurrent layer (oneDNN RNN)", {x, h0, c0, kernel, recurrent, bias},
                 {go_backwards ? xs : Tensor(), b, packed, workspace}, forward);

  if (training) {
    // Inputs on the tape: x, kernel, recurrent_kernel, then bias, h0, c0 when given.
    std::vector<Tensor> inputs{x, kernel, recurrent};
    const int bias_at = bias.defined() ? static_cast<int>(inputs.size()) : -1;
    if (bias.defined()) inputs.push_back(bias);
    const int h0_at = h0.defined() ? static_cast<int>(inputs.size()) : -1;
    if (h0.defined()) inputs.push_back(h0);
    const int c0_at = c0.defined() ? static_cast<int>(inputs.size()) : -1;
    if (c0.defined()) inputs.push_back(c0);
    autodiff::record(packed, inputs, [=](const Tensor& g, const std::vector<bool>& needs) {
      const Tensor dxs = Tensor::empty(x.shape()), dw = Tensor::empty(kernel.shape()), dr = Tensor::empty(recurrent.shape());
      const Tensor db = Tensor::empty(b.shape()), dh0 = Tensor::empty({N, U}), dc0 = lstm ? Tensor::empty({N, U}) : Tensor();
      const Tensor dx = go_backwards ? Tensor::empty(x.shape()) : dxs;  // in the input's time order
      const Tensor dbias = bias_at >= 0 && cell == kernels::RnnCell::lbr_gru ? Tensor::empty(bias.shape()) : Tensor();
      auto backward = [=] {
        const float* pg = g.data<float>();
        const float* pp = packed.data<float>();
        kernels::RnnBackwardArgs args{xs.data<float>(), h0.defined() ? h0.data<float>() : nullptr,
                                      c0.defined() ? c0.data<float>() : nullptr, kernel.data<float>(),
                                      recurrent.data<float>(), b.data<float>(), pp, pp + seq,
                                      lstm ? pp + seq + state : nullptr, pg, pg + seq, lstm ? pg + seq + state : nullptr,
                                      workspace.raw_data(), dxs.data<float>(), dh0.data<float>(),
                                      lstm ? dc0.data<float>() : nullptr, dw.data<float>(), dr.data<float>(),
                                      db.data<float>()};
        kernels::rnn_backward(a, args);
        if (go_backwards) reversed_into(dxs, dx);
        if (dbias.defined()) kernels::lbr_gru_bias_grad_to_keras(U, db.data<float>(), dbias.data<float>());
      };
      backward();
      if (jit::tracing())
        jit::capture("recurrent layer gradient", {g, xs, h0, c0, kernel, recurrent, b, packed, workspace},
                     {dxs, dw, dr, db, dh0, dc0, go_backwards ? dx : Tensor(), dbias}, backward);
      std::vector<Tensor> grads(needs.size());
      grads[0] = dx;
      grads[1] = dw;
      grads[2] = dr;
      if (bias_at >= 0) grads[bias_at] = dbias.defined() ? dbias : db;
      if (h0_at >= 0) grads[h0_at] = dh0;
      if (c0_at >= 0) grads[c0_at] = dc0;
      return grads;
    }, {.name = "recurrent layer (oneDNN RNN)"});
  }
  RnnOutputs out;
  out.sequence = unpack(packed, 0, {N, T, U});
  out.h = unpack(packed, seq, {N, U});
  if (lstm) out.c = unpack(packed, seq + state, {N, U});
  return out;
}

Tensor lstm_over_tokens(const Tensor& ids, const Tensor& table, const Tensor& kernel, const Tensor& recurrent,
                        const Tensor& bias, bool return_sequences) {
  if (autodiff::recording() || jit::tracing() || ids.ndim() != 2 || table.ndim() != 2 || kernel.ndim() != 2 ||
      recurrent.ndim() != 2)
    return Tensor();
  for (const Tensor* w : {&table, &kernel, &recurrent, &bias})
    if (w->defined() && (!w->is_variable() || w->dtype() != DType::float32)) return Tensor();
  const std::int64_t N = ids.dim(0), T = ids.dim(1), V = table.dim(0), U = recurrent.dim(0);
  const kernels::RnnArgs a{N, T, table.dim(1), U, kernels::RnnCell::lstm};
  if (T == 0 || kernel.shape() != Shape{a.input, 4 * U} || recurrent.dim(1) != 4 * U ||
      (bias.defined() && bias.shape() != Shape{4 * U}))
    return Tensor();
  std::vector<std::int64_t> tokens(static_cast<std::size_t>(N * T));
  switch (ids.dtype()) {
    case DType::int32: std::copy_n(ids.data<std::int32_t>(), tokens.size(), tokens.begin()); break;
    case DType::int64: std::copy_n(ids.data<std::int64_t>(), tokens.size(), tokens.begin()); break;
    case DType::float32: {
      const float* f = ids.data<float>();
      for (std::size_t i = 0; i < tokens.size(); ++i) {  // out of range, fractional: the Embedding layer reports it
        if (!(f[i] >= 0.f && f[i] < static_cast<float>(V))) return Tensor();
        tokens[i] = static_cast<std::int64_t>(f[i]);
        if (static_cast<float>(tokens[i]) != f[i]) return Tensor();
      }
      break;
    }
    default: return Tensor();
  }
  for (const std::int64_t t : tokens)
    if (t < 0 || t >= V) return Tensor();  // the Embedding layer reports it
  const Tensor packed = Tensor::empty({N * T * U + 2 * N * U});
  float* p = packed.data<float>();
  const auto version = [](const Tensor& t) {
    return kernels::Versioned{t.defined() ? t.data<float>() : nullptr, t.defined() ? t.version() : 0};
  };
  if (!kernels::lstm_over_tokens(a, tokens.data(), version(table), V, version(kernel), version(recurrent), version(bias),
                                 p, p + N * T * U, p + N * T * U + N * U))
    return Tensor();
  return return_sequences ? unpack(packed, 0, {N, T, U}) : unpack(packed, N * T * U, {N, U});
}

}  // namespace keras::ops
