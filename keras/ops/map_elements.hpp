#pragma once
// map_elements: f applied to each element of a float32 tensor, in parallel (the ops' plain loops).
// f must hold its state by value: a compiled function replays it (keras/function/capture.hpp).
#include "keras/function/capture.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/tensor.hpp"

namespace keras::ops::detail {

template <class F>
Tensor map_elements(const Tensor& x, F f) {
  Tensor out = Tensor::empty(x.shape());
  auto compute = [](const Tensor& x, const Tensor& out, const F& f) {
    const float* px = x.data<float>();
    float* po = out.data<float>();
    kernels::parallel_for(x.size(), [&](std::int64_t i) { po[i] = f(px[i]); });
  };
  compute(x, out, f);
  if (jit::tracing()) jit::capture("element-wise function", {x}, {out}, [=] { compute(x, out, f); });
  return out;
}

}  // namespace keras::ops::detail
