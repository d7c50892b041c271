#include "keras/ops/unary_math.hpp"

#include <cmath>
#include <numbers>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/float64_paths.hpp"
#include "keras/ops/map_elements.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {

namespace {

// f(x) element-wise; the backward multiplies the incoming gradient by df(x) (no gradient when df is null).
template <class F, class DF>
Tensor unary(const Tensor& x0, F f, DF df) {
  if (x0.dtype() == DType::float64) return detail::map_f64(x0, f);  // forward only, in double precision
  const Tensor x = x0.dtype() == DType::float32 ? x0 : x0.astype(DType::float32);
  Tensor out = detail::map_elements(x, f);
  if constexpr (!std::is_same_v<DF, std::nullptr_t>) {
    if (autodiff::recording())
      autodiff::record(out, {x}, [x, df](const Tensor& g, const std::vector<bool>&) {
        return std::vector<Tensor>{multiply(g, detail::map_elements(x, df))};
      });
  }
  return out;
}

}  // namespace

Tensor sin(const Tensor& x) {
  return unary(x, [](auto v) { return std::sin(v); }, [](auto v) { return std::cos(v); });
}
Tensor cos(const Tensor& x) {
  return unary(x, [](auto v) { return std::cos(v); }, [](auto v) { return -std::sin(v); });
}
Tensor tan(const Tensor& x) {
  return unary(x, [](auto v) { return std::tan(v); }, [](auto v) {
    const auto t = std::tan(v);
    return 1.f + t * t;
  });
}
Tensor arcsin(const Tensor& x) {
  return unary(x, [](auto v) { return std::asin(v); }, [](auto v) { return 1.f / std::sqrt(1.f - v * v); });
}
Tensor arccos(const Tensor& x) {
  return unary(x, [](auto v) { return std::acos(v); }, [](auto v) { return -1.f / std::sqrt(1.f - v * v); });
}
Tensor arctan(const Tensor& x) {
  return unary(x, [](auto v) { return std::atan(v); }, [](auto v) { return 1.f / (1.f + v * v); });
}
Tensor sinh(const Tensor& x) {
  return unary(x, [](auto v) { return std::sinh(v); }, [](auto v) { return std::cosh(v); });
}
Tensor cosh(const Tensor& x) {
  return unary(x, [](auto v) { return std::cosh(v); }, [](auto v) { return std::sinh(v); });
}
Tensor arcsinh(const Tensor& x) {
  return unary(x, [](auto v) { return std::asinh(v); }, [](auto v) { return 1.f / std::sqrt(v * v + 1.f); });
}
Tensor arctanh(const Tensor& x) {
  return unary(x, [](auto v) { return std::atanh(v); }, [](auto v) { return 1.f / (1.f - v * v); });
}
Tensor sign(const Tensor& x) {
  return unary(x, [](auto v) { return v > 0.f ? 1.f : (v < 0.f ? -1.f : v); }, nullptr);
}
Tensor floor(const Tensor& x) {
  return unary(x, [](auto v) { return std::floor(v); }, nullptr);
}
Tensor ceil(const Tensor& x) {
  return unary(x, [](auto v) { return std::ceil(v); }, nullptr);
}
Tensor round(const Tensor& x) {
  return unary(x, [](auto v) { return v - std::remainder(v, 1.f); }, nullptr);  // ties to even
}
Tensor log1p(const Tensor& x) {
  return unary(x, [](auto v) { return std::log1p(v); }, [](auto v) { return 1.f / (1.f + v); });
}
Tensor expm1(const Tensor& x) {
  return unary(x, [](auto v) { return std::expm1(v); }, [](auto v) { return std::exp(v); });
}
Tensor rsqrt(const Tensor& x) {
  return unary(x, [](auto v) { return 1.f / std::sqrt(v); }, [](auto v) { return -0.5f / (v * std::sqrt(v)); });
}
Tensor erf(const Tensor& x) {
  return unary(x, [](auto v) { return std::erf(v); }, [](auto v) {
    return static_cast<float>(2.0 / std::sqrt(std::numbers::pi)) * std::exp(-v * v);
  });
}

}  // namespace keras::ops
