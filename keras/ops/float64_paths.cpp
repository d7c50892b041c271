#include "keras/ops/float64_paths.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "keras/ops/broadcast_loop.hpp"

namespace keras::ops::detail {

Tensor binary_f64(const Tensor& a, const Tensor& b, BinaryF64 op) {
  switch (op) {
    case BinaryF64::add: return binary_loop(a, b, DType::float64, "add", [](double x, double y) { return x + y; });
    case BinaryF64::subtract: return binary_loop(a, b, DType::float64, "subtract", [](double x, double y) { return x - y; });
    case BinaryF64::multiply: return binary_loop(a, b, DType::float64, "multiply", [](double x, double y) { return x * y; });
    case BinaryF64::divide: return binary_loop(a, b, DType::float64, "divide", [](double x, double y) { return x / y; });
    case BinaryF64::maximum:
      return binary_loop(a, b, DType::float64, "maximum", [](double x, double y) { return x >= y ? x : y; });
    case BinaryF64::minimum:
      return binary_loop(a, b, DType::float64, "minimum", [](double x, double y) { return x <= y ? x : y; });
  }
  throw ValueError("binary_f64: unknown op");
}

Tensor eltwise_f64(const Tensor& x, kernels::Eltwise f, double alpha, double beta) {
  using E = kernels::Eltwise;
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  switch (f) {
    case E::linear: return map_f64(x, [=](double v) { return alpha * v + beta; });
    case E::relu: return map_f64(x, [=](double v) { return v > 0 ? v : alpha * v; });
    case E::clip: return map_f64(x, [=](double v) { return std::min(std::max(v, alpha), beta); });
    case E::elu: return map_f64(x, [=](double v) { return v > 0 ? v : alpha * std::expm1(v); });
    case E::logistic: return map_f64(x, sigmoid);
    case E::tanh: return map_f64(x, [](double v) { return std::tanh(v); });
    case E::gelu_erf: return map_f64(x, [](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); });
    case E::gelu_tanh:
      return map_f64(x, [](double v) {
        return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / 3.14159265358979323846) * (v + 0.044715 * v * v * v)));
      });
    case E::swish: return map_f64(x, [=](double v) { return v * sigmoid(alpha * v); });
    case E::soft_relu: return map_f64(x, [](double v) { return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v)); });
    case E::exp: return map_f64(x, [](double v) { return std::exp(v); });
    case E::log: return map_f64(x, [](double v) { return std::log(v); });
    case E::sqrt: return map_f64(x, [](double v) { return std::sqrt(v); });
    case E::square: return map_f64(x, [](double v) { return v * v; });
    case E::abs: return map_f64(x, [](double v) { return std::abs(v); });
  }
  throw ValueError("eltwise_f64: unknown function");
}

Tensor matmul_f64(const Tensor& x0, const Tensor& w0, const Tensor& bias0) {
  const Tensor x = x0.astype(DType::float64), w = w0.astype(DType::float64);
  const std::int64_t k = w.dim(0), n = w.dim(1), m = k ? x.size() / k : 0;
  Shape shape = x.shape();
  shape.back() = n;
  Tensor out = Tensor::zeros(shape, DType::float64);
  const double* px = x.data<double>();
  const double* pw = w.data<double>();
  double* po = out.data<double>();
  const Tensor bias = bias0.defined() ? bias0.astype(DType::float64) : Tensor();
  kernels::parallel_rows(m, n * k, [&](std::int64_t r) {
    double* row = po + r * n;
    if (bias.defined()) std::copy_n(bias.data<double>(), n, row);
    for (std::int64_t i = 0; i < k; ++i) {
      const double xv = px[r * k + i];
      for (std::int64_t j = 0; j < n; ++j) row[j] += xv * pw[i * n + j];
    }
  });
  return out;
}

}  // namespace keras::ops::detail
