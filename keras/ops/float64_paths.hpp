#pragma once
// The float64 paths of the float32 ops (arithmetic, eltwise activations, matmul): when an input is float64
// (Keras keeps float64 as float64), these compute in double precision with plain loops under the OpenMP
// pool and return float64. Forward only: a tape records nothing through them. Internal to the ops.
#include "keras/kernels/eltwise.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/tensor.hpp"

namespace keras::ops::detail {

inline bool any_float64(const Tensor& a, const Tensor& b = Tensor()) {
  return (a.defined() && a.dtype() == DType::float64) || (b.defined() && b.dtype() == DType::float64);
}

enum class BinaryF64 { add, subtract, multiply, divide, maximum, minimum };
/// a op b with broadcasting, in float64.
Tensor binary_f64(const Tensor& a, const Tensor& b, BinaryF64 op);
/// A oneDNN eltwise function (kernels::Eltwise with its alpha and beta) computed in float64.
Tensor eltwise_f64(const Tensor& x, kernels::Eltwise f, double alpha, double beta);
/// x [.., k] @ w [k, n] (+ bias [n]) in float64.
Tensor matmul_f64(const Tensor& x, const Tensor& w, const Tensor& bias);

/// f applied to each element of x converted to float64.
template <class F>
Tensor map_f64(const Tensor& x0, F f) {
  const Tensor x = x0.astype(DType::float64);
  Tensor out = Tensor::empty(x.shape(), DType::float64);
  const double* px = x.data<double>();
  double* po = out.data<double>();
  kernels::parallel_for(x.size(), [&](std::int64_t i) { po[i] = f(px[i]); });
  return out;
}

}  // namespace keras::ops::detail
