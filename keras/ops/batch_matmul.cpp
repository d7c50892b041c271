#include "keras/ops/batch_matmul.hpp"

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/batch_matmul.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::ops {
namespace {

Tensor product(const Tensor& a, const Tensor& b, bool ta, bool tb) {
  if (a.ndim() < 2 || a.ndim() != b.ndim())
    throw ValueError(fmt::format("batch_matmul: inputs need the same rank (at least 2), got shapes {} and {}",
                                 shape_str(a.shape()), shape_str(b.shape())));
  const int r = a.ndim();
  for (int i = 0; i < r - 2; ++i)
    if (a.dim(i) != b.dim(i))
      throw ValueError(fmt::format("batch_matmul: leading axes differ between shapes {} and {}",
                                   shape_str(a.shape()), shape_str(b.shape())));
  const std::int64_t m = ta ? a.dim(-1) : a.dim(-2), k = ta ? a.dim(-2) : a.dim(-1);
  const std::int64_t kb = tb ? b.dim(-1) : b.dim(-2), n = tb ? b.dim(-2) : b.dim(-1);
  if (k != kb)
    throw ValueError(fmt::format("batch_matmul: inner dimensions differ ({} vs {}) for shapes {} and {}{}{}", k, kb,
                                 shape_str(a.shape()), shape_str(b.shape()), ta ? " (a transposed)" : "",
                                 tb ? " (b transposed)" : ""));
  Shape out_shape = a.shape();
  out_shape[r - 2] = m;
  out_shape[r - 1] = n;
  const DType dtype = a.dtype();
  Tensor c = Tensor::empty(out_shape, dtype);
  const std::int64_t batch = m * n == 0 ? 0 : c.size() / (m * n);
  if (k == 0) return Tensor::zeros(out_shape, dtype);
  if (dtype == DType::float64) {  // double precision loops (the float64 path: forward and gradients)
    const double* pa = a.data<double>();
    const double* pb = b.data<double>();
    double* pc = c.data<double>();
    kernels::parallel_rows(batch * m, n * k, [&](std::int64_t row) {
      const std::int64_t bi = row / m, i = row % m;
      const double* A = pa + bi * m * k;
      const double* B = pb + bi * k * n;
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::int64_t l = 0; l < k; ++l) sum += (ta ? A[l * m + i] : A[i * k + l]) * (tb ? B[j * k + l] : B[l * n + j]);
        pc[row * n + j] = sum;
      }
    });
    return c;
  }
  const kernels::BatchMatmulArgs args{.batch = batch, .m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb};
  kernels::batch_matmul(a.data<float>(), b.data<float>(), c.data<float>(), args);
  if (jit::tracing())  // forward and gradient products alike
    jit::capture("batch_matmul", {a, b}, {c},
                 [=] { kernels::batch_matmul(a.data<float>(), b.data<float>(), c.data<float>(), args); });
  return c;
}

// float32, or float64 when either input is float64 (Keras keeps float64).
Tensor as_float(const Tensor& t, bool f64) {
  if (!t.defined()) throw ValueError("batch_matmul received an undefined tensor");
  const DType want = f64 ? DType::float64 : DType::float32;
  return t.dtype() == want ? t : t.astype(want);
}

}  // namespace

Tensor batch_matmul(const Tensor& a0, const Tensor& b0, bool ta, bool tb) {
  const bool f64 = (a0.defined() && a0.dtype() == DType::float64) || (b0.defined() && b0.dtype() == DType::float64);
  const Tensor a = as_float(a0, f64), b = as_float(b0, f64);
  Tensor c = product(a, b, ta, tb);
  if (autodiff::recording())
    autodiff::record(c, {a, b}, [a, b, ta, tb](const Tensor& g, const std::vector<bool>& needs) {
      // Recorded products while an outer tape differentiates this backward pass, raw ones otherwise.
      const bool recorded = autodiff::recording();
      auto mm = [recorded](const Tensor& x, const Tensor& y, bool tx, bool ty) {
        return recorded ? batch_matmul(x, y, tx, ty) : product(x, y, tx, ty);
      };
      std::vector<Tensor> grads(2);
      if (!ta && !tb) {
        if (needs[0]) grads[0] = mm(g, b, false, true);
        if (needs[1]) grads[1] = mm(a, g, true, false);
      } else if (!ta && tb) {
        if (needs[0]) grads[0] = mm(g, b, false, false);
        if (needs[1]) grads[1] = mm(g, a, true, false);
      } else if (ta && !tb) {
        if (needs[0]) grads[0] = mm(b, g, false, true);
        if (needs[1]) grads[1] = mm(a, g, false, false);
      } else {
        if (needs[0]) grads[0] = mm(b, g, true, true);
        if (needs[1]) grads[1] = mm(g, a, true, true);
      }
      return grads;
    }, {.name = "batch_matmul", .differentiable_backward = true});
  return c;
}

}  // namespace keras::ops
