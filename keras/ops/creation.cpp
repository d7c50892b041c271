#include "keras/ops/creation.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/ops/dtype_dispatch.hpp"

namespace keras::ops {

Tensor arange(double start, std::optional<double> stop, double step, std::optional<DType> dtype) {
  if (!stop) {
    stop = start;
    start = 0;
  }
  if (step == 0) throw ValueError("arange: step must not be zero");
  auto whole = [](double v) { return std::floor(v) == v; };
  const DType dt = dtype.value_or(whole(start) && whole(*stop) && whole(step) ? DType::int32 : DType::float32);
  const auto n = static_cast<std::int64_t>(std::max(0.0, std::ceil((*stop - start) / step)));
  Tensor out = Tensor::empty({n}, dt);
  detail::visit_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    for (std::int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<double>(i) * step);
  });
  return out;
}

Tensor linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype) {
  if (num < 0) throw ValueError(fmt::format("linspace: num is {}; it must be at least 0", num));
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  Tensor out = Tensor::empty({num}, dtype);
  detail::visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    for (std::int64_t i = 0; i < num; ++i) p[i] = static_cast<T>(start + static_cast<double>(i) * step);
    if (endpoint && num > 1) p[num - 1] = static_cast<T>(stop);
  });
  return out;
}

namespace {
template <class Pred>
Tensor matrix_where(std::int64_t n, std::int64_t m, DType dtype, const char* op, Pred one) {
  if (n < 0 || m < 0) throw ValueError(fmt::format("{}: the matrix size {} x {} is negative", op, n, m));
  Tensor out = Tensor::zeros({n, m}, dtype);
  detail::visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < m; ++j)
        if (one(i, j)) p[i * m + j] = T{1};
  });
  return out;
}
}  // namespace

Tensor eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype) {
  return matrix_where(n, m.value_or(n), dtype, "eye", [k](auto i, auto j) { return j - i == k; });
}

Tensor identity(std::int64_t n, DType dtype) { return eye(n, n, 0, dtype); }

Tensor tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype) {
  return matrix_where(n, m.value_or(n), dtype, "tri", [k](auto i, auto j) { return j - i <= k; });
}

}  // namespace keras::ops
