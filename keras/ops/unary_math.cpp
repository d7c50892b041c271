#include "keras/ops/unary_math.hpp"

#include <cmath>
#include <numbers>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/float64_paths.hpp"
#include "keras/ops/map_elements.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {

namespace {

// f(x) element-wise; the backward multiplies the incoming gradient by df(x), computed element-wise, or by
// dop(x, y), the same derivative as recorded ops, while an outer tape differentiates the backward pass.
// float64 inputs are computed in double precision, their backward with the recorded derivative.
template <class F, class DF, class DOp>
Tensor unary(const char* name, const Tensor& x0, F f, DF df, DOp dop) {
  if (x0.dtype() == DType::float64) {  // double precision; the backward as recorded ops
    Tensor out = detail::map_f64(x0, f);
    if (autodiff::recording())
      autodiff::record(out, {x0}, [x0, out, dop](const Tensor& g, const std::vector<bool>&) {
        return std::vector<Tensor>{multiply(g, dop(x0, out))};
      }, {.name = name, .differentiable_backward = true});
    return out;
  }
  const Tensor x = x0.dtype() == DType::float32 ? x0 : x0.astype(DType::float32);
  Tensor out = detail::map_elements(x, f);
  if (autodiff::recording())
    autodiff::record(out, {x}, [x, out, df, dop](const Tensor& g, const std::vector<bool>&) {
      if (autodiff::recording()) return std::vector<Tensor>{multiply(g, dop(x, out))};
      return std::vector<Tensor>{multiply(g, detail::map_elements(x, df))};
    }, {.name = name, .differentiable_backward = true});
  return out;
}

// A function with a zero derivative (where it has one): not recorded.
template <class F>
Tensor piecewise_constant(const Tensor& x0, F f) {
  if (x0.dtype() == DType::float64) return detail::map_f64(x0, f);
  return detail::map_elements(x0.dtype() == DType::float32 ? x0 : x0.astype(DType::float32), f);
}

}  // namespace

Tensor sin(const Tensor& x) {
  return unary("sin", x, [](auto v) { return std::sin(v); }, [](auto v) { return std::cos(v); },
               [](const Tensor& x, const Tensor&) { return cos(x); });
}
Tensor cos(const Tensor& x) {
  return unary("cos", x, [](auto v) { return std::cos(v); }, [](auto v) { return -std::sin(v); },
               [](const Tensor& x, const Tensor&) { return negative(sin(x)); });
}
Tensor tan(const Tensor& x) {
  return unary("tan", x, [](auto v) { return std::tan(v); }, [](auto v) {
    const auto t = std::tan(v);
    return 1.f + t * t;
  }, [](const Tensor&, const Tensor& y) { return 1.f + square(y); });
}
Tensor arcsin(const Tensor& x) {
  return unary("arcsin", x, [](auto v) { return std::asin(v); }, [](auto v) { return 1.f / std::sqrt(1.f - v * v); },
               [](const Tensor& x, const Tensor&) { return rsqrt(1.f - square(x)); });
}
Tensor arccos(const Tensor& x) {
  return unary("arccos", x, [](auto v) { return std::acos(v); }, [](auto v) { return -1.f / std::sqrt(1.f - v * v); },
               [](const Tensor& x, const Tensor&) { return negative(rsqrt(1.f - square(x))); });
}
Tensor arctan(const Tensor& x) {
  return unary("arctan", x, [](auto v) { return std::atan(v); }, [](auto v) { return 1.f / (1.f + v * v); },
               [](const Tensor& x, const Tensor&) { return 1.f / (1.f + square(x)); });
}
Tensor sinh(const Tensor& x) {
  return unary("sinh", x, [](auto v) { return std::sinh(v); }, [](auto v) { return std::cosh(v); },
               [](const Tensor& x, const Tensor&) { return cosh(x); });
}
Tensor cosh(const Tensor& x) {
  return unary("cosh", x, [](auto v) { return std::cosh(v); }, [](auto v) { return std::sinh(v); },
               [](const Tensor& x, const Tensor&) { return sinh(x); });
}
Tensor arcsinh(const Tensor& x) {
  return unary("arcsinh", x, [](auto v) { return std::asinh(v); }, [](auto v) { return 1.f / std::sqrt(v * v + 1.f); },
               [](const Tensor& x, const Tensor&) { return rsqrt(square(x) + 1.f); });
}
Tensor arctanh(const Tensor& x) {
  return unary("arctanh", x, [](auto v) { return std::atanh(v); }, [](auto v) { return 1.f / (1.f - v * v); },
               [](const Tensor& x, const Tensor&) { return 1.f / (1.f - square(x)); });
}
Tensor sign(const Tensor& x) {
  return piecewise_constant(x, [](auto v) { return v > 0.f ? 1.f : (v < 0.f ? -1.f : v); });
}
Tensor floor(const Tensor& x) {
  return piecewise_constant(x, [](auto v) { return std::floor(v); });
}
Tensor ceil(const Tensor& x) {
  return piecewise_constant(x, [](auto v) { return std::ceil(v); });
}
Tensor round(const Tensor& x) {
  return piecewise_constant(x, [](auto v) { return v - std::remainder(v, 1.f); });  // ties to even
}
Tensor log1p(const Tensor& x) {
  return unary("log1p", x, [](auto v) { return std::log1p(v); }, [](auto v) { return 1.f / (1.f + v); },
               [](const Tensor& x, const Tensor&) { return 1.f / (1.f + x); });
}
Tensor expm1(const Tensor& x) {
  return unary("expm1", x, [](auto v) { return std::expm1(v); }, [](auto v) { return std::exp(v); },
               [](const Tensor&, const Tensor& y) { return y + 1.f; });
}
Tensor rsqrt(const Tensor& x) {
  return unary("rsqrt", x, [](auto v) { return 1.f / std::sqrt(v); }, [](auto v) { return -0.5f / (v * std::sqrt(v)); },
               [](const Tensor& x, const Tensor& y) { return -0.5f * y / x; });
}
Tensor erf(const Tensor& x) {
  constexpr float two_over_sqrt_pi = static_cast<float>(2.0 / 1.7724538509055160273);
  return unary("erf", x, [](auto v) { return std::erf(v); },
               [](auto v) { return two_over_sqrt_pi * std::exp(-v * v); },
               [](const Tensor& x, const Tensor&) { return two_over_sqrt_pi * exp(negative(square(x))); });
}

}  // namespace keras::ops
