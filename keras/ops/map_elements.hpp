#pragma once
// map_elements: f applied to each element of a float32 tensor, in parallel (the ops' plain loops).
#include "keras/kernels/parallel.hpp"
#include "keras/tensor.hpp"

namespace keras::ops::detail {

template <class F>
Tensor map_elements(const Tensor& x, F f) {
  Tensor out = Tensor::empty(x.shape());
  const float* px = x.data<float>();
  float* po = out.data<float>();
  kernels::parallel_for(x.size(), [&](std::int64_t i) { po[i] = f(px[i]); });
  return out;
}

}  // namespace keras::ops::detail
