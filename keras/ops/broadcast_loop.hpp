#pragma once
// binary_loop: f(a[i], b[i]) over the broadcast shape of a and b, both promoted to `dtype` first; the
// result has dtype `out_dtype`. The ops' plain loop for binary functions without a oneDNN primitive.
// Records nothing: the op that calls it records its own backward.
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/broadcasting.hpp"
#include "keras/ops/dtype_dispatch.hpp"

namespace keras::ops::detail {

template <class Out, class F>
Tensor binary_loop_as(const Tensor& a0, const Tensor& b0, DType dtype, const char* op, F f) {
  if (!a0.defined() || !b0.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  autodiff::NoGradScope no_grad;
  const Shape shape = broadcast_shapes(a0.shape(), b0.shape(), op);
  // Same shapes and scalars run directly; other broadcasts are materialized first.
  const auto operand = [&](const Tensor& t) {
    const Tensor c = t.astype(dtype);
    return t.shape() == shape || t.size() == 1 ? c : broadcast_to(c, shape);
  };
  const Tensor a = operand(a0), b = operand(b0);
  const bool a_scalar = a.size() == 1 && shape_size(shape) != 1, b_scalar = b.size() == 1 && shape_size(shape) != 1;
  Tensor out = Tensor::empty(shape, dtype_of<Out>());
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    Out* po = out.data<Out>();
    if (a_scalar) {
      const T sa = pa[0];
      kernels::parallel_for(out.size(), [&](std::int64_t i) { po[i] = f(sa, b_scalar ? pb[0] : pb[i]); });
    } else if (b_scalar) {
      const T sb = pb[0];
      kernels::parallel_for(out.size(), [&](std::int64_t i) { po[i] = f(pa[i], sb); });
    } else {
      kernels::parallel_for(out.size(), [&](std::int64_t i) { po[i] = f(pa[i], pb[i]); });
    }
  });
  return out;
}

/// binary_loop_as with the result in the inputs' promoted dtype.
template <class F>
Tensor binary_loop(const Tensor& a0, const Tensor& b0, DType dtype, const char* op, F f) {
  if (!a0.defined() || !b0.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    return binary_loop_as<T>(a0, b0, dtype, op, [&f](T x, T y) { return static_cast<T>(f(x, y)); });
  });
}

}  // namespace keras::ops::detail
