#include "keras/ops/eltwise_derivative.hpp"

#include <cmath>
#include <numbers>

#include "keras/errors.hpp"
#include "keras/ops/float64_paths.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/unary_math.hpp"

namespace keras::ops::detail {
namespace {

using kernels::Eltwise;

// f'(x) from oneDNN's backward kernel, as a constant (for the piecewise-linear activations).
Tensor kernel_derivative(Eltwise f, float alpha, float beta, const Tensor& x) {
  if (x.dtype() == DType::float64) {  // the same derivatives in double precision
    const double a = alpha, b = beta;
    if (f == Eltwise::relu) return map_f64(x, [a](double v) { return v > 0 ? 1.0 : a; });
    if (f == Eltwise::clip) return map_f64(x, [a, b](double v) { return v > a && v <= b ? 1.0 : 0.0; });
    return map_f64(x, [](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); });  // abs
  }
  Tensor ones = Tensor::ones(x.shape()), d = Tensor::empty(x.shape());
  kernels::eltwise_backward(f, alpha, beta, x.data<float>(), ones.data<float>(), d.data<float>(), x.size());
  return d;
}

}  // namespace

Tensor eltwise_derivative(Eltwise f, float alpha, float beta, const Tensor& x, const Tensor& y) {
  switch (f) {
    case Eltwise::linear: return Tensor::scalar(alpha);
    case Eltwise::relu:
    case Eltwise::clip:
    case Eltwise::abs: return kernel_derivative(f, alpha, beta, x);
    case Eltwise::elu: {  // 1 where x > 0, else alpha * exp(x) = y + alpha
      const Tensor positive = greater(x, Tensor::scalar(0.f));
      return positive + (1.f - positive) * (y + alpha);
    }
    case Eltwise::logistic: return y * (1.f - y);
    case Eltwise::tanh: return 1.f - square(y);
    case Eltwise::gelu_erf: {  // Phi(x) + x phi(x)
      const float inv_sqrt2 = static_cast<float>(1.0 / std::numbers::sqrt2);
      const float inv_sqrt_2pi = static_cast<float>(1.0 / std::sqrt(2.0 * std::numbers::pi));
      const Tensor cdf = 0.5f * (1.f + erf(x * inv_sqrt2));
      return cdf + x * (exp(square(x) * -0.5f) * inv_sqrt_2pi);
    }
    case Eltwise::gelu_tanh: {  // y = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3)
      const float c = static_cast<float>(std::sqrt(2.0 / std::numbers::pi));
      const Tensor t = tanh(c * (x + 0.044715f * x * square(x)));
      return 0.5f * (1.f + t) + 0.5f * x * (1.f - square(t)) * (c * (1.f + 3.f * 0.044715f * square(x)));
    }
    case Eltwise::swish: {  // y = x sigmoid(alpha x)
      const Tensor s = sigmoid(alpha * x);
      return s + alpha * x * s * (1.f - s);
    }
    case Eltwise::soft_relu: return sigmoid(x);
    case Eltwise::exp: return y;
    case Eltwise::log: return 1.f / x;
    case Eltwise::sqrt: return 0.5f / y;
    case Eltwise::square: return 2.f * x;
  }
  throw ValueError("eltwise_derivative: unknown activation");
}

Tensor fused_activation_grad(Eltwise f, const Tensor& g, const Tensor& y) {
  switch (f) {
    case Eltwise::linear: return g;
    case Eltwise::relu: return g * greater(y, Tensor::scalar(0.f));
    case Eltwise::logistic: return g * (y * (1.f - y));
    case Eltwise::tanh: return g * (1.f - square(y));
    default: throw ValueError("Only linear, relu, sigmoid and tanh fuse into a matrix product or convolution");
  }
}

}  // namespace keras::ops::detail
