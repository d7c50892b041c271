#include "keras/ops/comparison.hpp"

#include <cmath>

#include "keras/ops/broadcast_loop.hpp"

namespace keras::ops {
namespace {

template <class F>
Tensor compare(const Tensor& a, const Tensor& b, const char* op, F f) {
  if (!a.defined() || !b.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  const DType dt = detail::result_dtype(a.dtype(), b.dtype());
  return detail::binary_loop_as<detail::BoolT>(a, b, dt, op, [f](auto x, auto y) { return detail::BoolT(f(x, y)); });
}

template <class F>
Tensor classify(const Tensor& x, const char* op, F f) {
  if (!x.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  Tensor out = Tensor::empty(x.shape(), detail::kBool);
  detail::visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<T>();
    detail::BoolT* po = out.data<detail::BoolT>();
    kernels::parallel_for(x.size(), [&](std::int64_t i) {
      if constexpr (std::is_floating_point_v<T>) po[i] = f(p[i]);
      else po[i] = f(0.0);  // integers are finite numbers
    });
  });
  return out;
}

}  // namespace

Tensor equal(const Tensor& a, const Tensor& b) { return compare(a, b, "equal", [](auto x, auto y) { return x == y; }); }
Tensor not_equal(const Tensor& a, const Tensor& b) {
  return compare(a, b, "not_equal", [](auto x, auto y) { return x != y; });
}
Tensor less(const Tensor& a, const Tensor& b) { return compare(a, b, "less", [](auto x, auto y) { return x < y; }); }
Tensor less_equal(const Tensor& a, const Tensor& b) {
  return compare(a, b, "less_equal", [](auto x, auto y) { return x <= y; });
}
Tensor greater(const Tensor& a, const Tensor& b) { return compare(a, b, "greater", [](auto x, auto y) { return x > y; }); }
Tensor greater_equal(const Tensor& a, const Tensor& b) {
  return compare(a, b, "greater_equal", [](auto x, auto y) { return x >= y; });
}

Tensor isnan(const Tensor& x) { return classify(x, "isnan", [](auto v) { return std::isnan(v); }); }
Tensor isinf(const Tensor& x) { return classify(x, "isinf", [](auto v) { return std::isinf(v); }); }
Tensor isfinite(const Tensor& x) { return classify(x, "isfinite", [](auto v) { return std::isfinite(v); }); }

}  // namespace keras::ops
