#include "keras/ops/fused_attention.hpp"

#include <vector>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/attention.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

// [batch, t, heads, d] as stacks [batch * heads, t, d], and back (rank 3: as it is).
Tensor stacks(const Tensor& x) {
  if (x.ndim() == 3) return x;
  return reshape(transpose(x, {0, 2, 1, 3}), {x.dim(0) * x.dim(2), x.dim(1), x.dim(3)});
}
Tensor unstacked(const Tensor& x, const Tensor& like) {
  if (like.ndim() == 3) return x;
  return transpose(reshape(x, {like.dim(0), like.dim(2), like.dim(1), like.dim(3)}), {0, 2, 1, 3});
}

// The same gradients as recorded ops (an outer tape differentiates this backward pass).
std::vector<Tensor> recorded_backward(const Tensor& g0, const Tensor& q0, const Tensor& k0, const Tensor& v0) {
  const Tensor g = stacks(g0), q = stacks(q0), k = stacks(k0), v = stacks(v0);
  const Tensor p = softmax(batch_matmul(q, k, false, true), -1);
  const Tensor dp = batch_matmul(g, v, false, true);
  const Tensor ds = multiply(p, subtract(dp, sum(multiply(dp, p), {-1}, true)));
  return {unstacked(batch_matmul(ds, k), q0), unstacked(batch_matmul(ds, q, true, false), k0),
          unstacked(batch_matmul(p, g, true, false), v0)};
}

}  // namespace

Tensor fused_attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int rank = q.ndim();
  for (const Tensor* t : {&q, &k, &v})
    if (t->dtype() != DType::float32 || (rank != 3 && rank != 4) || t->ndim() != rank) return Tensor();
  for (int axis : rank == 3 ? std::vector<int>{0} : std::vector<int>{0, 2})  // the same stacks of heads
    if (k.dim(axis) != q.dim(axis) || v.dim(axis) != q.dim(axis)) return Tensor();
  const std::int64_t h = rank == 4 ? q.dim(2) : 1;
  const kernels::AttentionArgs a{
      .n = q.dim(0) * h, .t = q.dim(1), .s = k.dim(1), .d = q.dim(-1), .dv = v.dim(-1), .h = h};
  if (v.dim(1) != a.s || k.dim(-1) != a.d || !kernels::attention_fits(a)) return Tensor();
  const bool record = autodiff::recording();
  Shape out_shape = q.shape();
  out_shape.back() = a.dv;
  const Tensor o = Tensor::empty(out_shape);
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
