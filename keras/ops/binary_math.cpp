#include "keras/ops/binary_math.hpp"

#include <cmath>

#include "keras/ops/broadcast_loop.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/selection.hpp"
#include "keras/ops/unary_math.hpp"

namespace keras::ops {
namespace {

DType common(const Tensor& a, const Tensor& b, const char* op) {
  if (!a.defined() || !b.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  const DType dt = detail::result_dtype(a.dtype(), b.dtype());
  return dt == DType::bool_ ? DType::int32 : dt;  // arithmetic on bools is integer arithmetic
}

template <class T>
T int_pow(T base, T e) {
  if (e < T{0}) return base == T{1} ? T{1} : (base == T(-1) ? (e % 2 ? T(-1) : T{1}) : T{0});
  T r{1};
  for (; e > T{0}; e >>= 1, base *= base)
    if (e & T{1}) r *= base;
  return r;
}

}  // namespace

Tensor power(const Tensor& x10, const Tensor& x20) {
  const DType dt = common(x10, x20, "power");
  const Tensor x1 = x10.dtype() == dt ? x10 : cast(x10, dt), x2 = x20.dtype() == dt ? x20 : cast(x20, dt);
  Tensor out = detail::binary_loop(x1, x2, dt, "power", [](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_floating_point_v<T>) return std::pow(a, b);
    else if constexpr (std::is_same_v<T, bool>) return a || !b;  // unreachable: bools become int32
    else return int_pow(a, b);
  });
  if (detail::is_float(dt) && autodiff::recording())
    autodiff::record(out, {x1, x2}, [x1, x2, out](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(2);
      if (needs[0])
        grads[0] = reduce_to_shape(multiply(g, multiply(x2, power(x1, subtract(x2, Tensor::ones({}, x2.dtype()))))),
                                   x1.shape());
      if (needs[1]) {
        const Tensor zero = Tensor::zeros({}, x1.dtype());
        const Tensor safe = where(equal(x1, zero), Tensor::ones({}, x1.dtype()), x1);  // log(1) = 0 where x1 == 0
        grads[1] = reduce_to_shape(multiply(g, multiply(out, log(safe))), x2.shape());
      }
      return grads;
    });
  return out;
}

Tensor pow(const Tensor& x1, const Tensor& x2) { return power(x1, x2); }

Tensor mod(const Tensor& x10, const Tensor& x20) {
  const DType dt = common(x10, x20, "mod");
  const Tensor x1 = x10.dtype() == dt ? x10 : cast(x10, dt), x2 = x20.dtype() == dt ? x20 : cast(x20, dt);
  Tensor out = detail::binary_loop(x1, x2, dt, "mod", [](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_same_v<T, bool>) {
      return false;  // unreachable: bools become int32
    } else if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (r != T{0} && ((r < T{0}) != (b < T{0}))) r += b;
      return r;
    } else {
      if (b == T{0}) return T{0};
      T r = static_cast<T>(a % b);
      if (r != T{0} && ((r < T{0}) != (b < T{0}))) r = static_cast<T>(r + b);
      return r;
    }
  });
  if (detail::is_float(dt) && autodiff::recording())
    autodiff::record(out, {x1, x2}, [x1, x2](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(2);
      if (needs[0]) grads[0] = reduce_to_shape(g, x1.shape());
      if (needs[1]) grads[1] = reduce_to_shape(negative(multiply(g, floor_divide(x1, x2))), x2.shape());
      return grads;
    });
  return out;
}

Tensor floor_divide(const Tensor& x1, const Tensor& x2) {
  const DType dt = common(x1, x2, "floor_divide");
  return detail::binary_loop(x1, x2, dt, "floor_divide", [](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_same_v<T, bool>) {
      return a;  // unreachable: bools become int32
    } else if constexpr (std::is_floating_point_v<T>) {
      return std::floor(a / b);
    } else {
      if (b == T{0}) return T{0};
      T q = static_cast<T>(a / b);
      if ((a % b != T{0}) && ((a < T{0}) != (b < T{0}))) --q;
      return q;
    }
  });
}

}  // namespace keras::ops
