#include "keras/ops/fused_attention.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/attention.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::ops {
namespace {

// The same gradients as recorded ops (an outer tape differentiates this backward pass).
std::vector<Tensor> recorded_backward(const Tensor& g, const Tensor& q, const Tensor& k, const Tensor& v) {
  const Tensor p = softmax(batch_matmul(q, k, false, true), -1);
  const Tensor dp = batch_matmul(g, v, false, true);
  const Tensor ds = multiply(p, subtract(dp, sum(multiply(dp, p), {-1}, true)));
  return {batch_matmul(ds, k), batch_matmul(ds, q, true, false), batch_matmul(p, g, true, false)};
}

}  // namespace

Tensor fused_attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  for (const Tensor* t : {&q, &k, &v})
    if (t->dtype() != DType::float32 || t->ndim() != 3) return Tensor();
  const kernels::AttentionArgs a{.n = q.dim(0), .t = q.dim(1), .s = k.dim(1), .d = q.dim(2), .dv = v.dim(2)};
  if (k.dim(0) != a.n || v.dim(0) != a.n || v.dim(1) != a.s || k.dim(2) != a.d || !kernels::attention_fits(a))
    return Tensor();
  const bool record = autodiff::recording();
  const Tensor o = Tensor::empty({a.n, a.t, a.dv});
  const Tensor lse = record ? Tensor::empty({a.n, a.t}) : Tensor();
  auto forward = [=] {
    kernels::attention_forward(q.data<float>(), k.data<float>(), v.data<float>(), o.data<float>(),
                               lse.defined() ? lse.data<float>() : nullptr, a);
  };
  forward();
  if (jit::tracing()) jit::capture("attention", {q, k, v}, {o, lse}, forward);
  if (!record) return o;
  autodiff::record(o, {q, k, v}, [=](const Tensor& g, const std::vector<bool>&) {
    if (autodiff::recording()) return recorded_backward(g, q, k, v);
    const Tensor gf = g.dtype() == DType::float32 ? g : g.astype(DType::float32);
    std::vector<Tensor> grads{Tensor::empty(q.shape()), Tensor::empty(k.shape()), Tensor::empty(v.shape())};
    const Tensor dq = grads[0], dk = grads[1], dv = grads[2];
    auto run = [=] {
      kernels::attention_backward(q.data<float>(), k.data<float>(), v.data<float>(), o.data<float>(),
                                  lse.data<float>(), gf.data<float>(), dq.data<float>(), dk.data<float>(),
                                  dv.data<float>(), a);
    };
    run();
    if (jit::tracing()) jit::capture("attention gradient", {q, k, v, o, lse, gf}, {dq, dk, dv}, run);
    return grads;
  }, {.name = "attention", .differentiable_backward = true});
  return o;
}

}  // namespace keras::ops
