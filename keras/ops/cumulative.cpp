#include "keras/ops/cumulative.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

Tensor numeric_input(const Tensor& x, const char* op) {
  if (!x.defined()) throw ValueError(fmt::format("{} received an undefined tensor", op));
  return x.dtype() == DType::uint8 || x.dtype() == DType::bool_ ? x.astype(DType::int32) : x;
}

struct Lines {
  std::int64_t outer = 1, len = 1, inner = 1;
};
Lines lines_of(const Tensor& x, int a) {
  Lines l;
  for (int d = 0; d < a; ++d) l.outer *= x.dim(d);
  for (int d = a + 1; d < x.ndim(); ++d) l.inner *= x.dim(d);
  l.len = x.dim(a);
  return l;
}

// f(p_in, p_out, len, stride) on each line of x along a, in parallel.
template <class T, class F>
void for_lines(const Tensor& x, Tensor& out, int a, F f) {
  const Lines l = lines_of(x, a);
  const T* px = x.data<T>();
  T* po = out.data<T>();
  kernels::parallel_rows(l.outer * l.inner, l.len, [&](std::int64_t r) {
    const std::int64_t start = (r / l.inner) * l.len * l.inner + r % l.inner;
    f(px + start, po + start, l.len, l.inner);
  });
}

// The gradient of a cumulative product along one line: d/dx_i of sum_j g_j * prod_{k<=j} x_k.
void cumprod_grad_line(const float* x, const float* g, float* d, std::int64_t len, std::int64_t s) {
  std::int64_t zero = len;
  for (std::int64_t i = 0; i < len; ++i)
    if (x[i * s] == 0.f) {
      zero = i;
      break;
    }
  // Before the first zero: sum_{i<=j<zero} g_j out_j / x_i (out_j = prod_{k<=j} x_k, non-zero there).
  double acc = 0, running = 1;
  std::vector<double> out(static_cast<std::size_t>(std::min(zero, len)));
  for (std::int64_t j = 0; j < zero; ++j) out[static_cast<std::size_t>(j)] = running *= x[j * s];
  for (std::int64_t i = zero; i-- > 0;) {
    acc += double(g[i * s]) * out[static_cast<std::size_t>(i)];
    d[i * s] = static_cast<float>(acc / x[i * s]);
  }
  if (zero == len) return;
  // At the first zero: sum_{j>=zero} g_j prod_{k<=j, k!=zero} x_k; after it everything is multiplied by 0.
  double before = zero ? out[static_cast<std::size_t>(zero - 1)] : 1.0, sum = 0;
  for (std::int64_t j = zero; j < len; ++j) {
    if (j > zero) before *= x[j * s];
    sum += g[j * s] * before;
  }
  d[zero * s] = static_cast<float>(sum);
  for (std::int64_t j = zero + 1; j < len; ++j) d[j * s] = 0.f;
}

}  // namespace

Tensor cumsum(const Tensor& x0, std::optional<int> axis) {
  Tensor x = numeric_input(x0, "cumsum");
  if (!axis || x.ndim() == 0) x = reshape(x, {x.size()});
  const int a = detail::normalize_axis(axis.value_or(0), x.ndim(), "cumsum");
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  detail::visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for_lines<T>(x, out, a, [](const T* p, T* o, std::int64_t len, std::int64_t s) {
      T acc{};
      for (std::int64_t i = 0; i < len; ++i) o[i * s] = acc += p[i * s];
    });
  });
  if (detail::is_float(x.dtype()) && autodiff::recording())
    autodiff::record(out, {x}, [a](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{flip(cumsum(flip(g, {a}), a), {a})};
    });
  return out;
}

Tensor cumprod(const Tensor& x0, std::optional<int> axis) {
  Tensor x = numeric_input(x0, "cumprod");
  if (!axis || x.ndim() == 0) x = reshape(x, {x.size()});
  const int a = detail::normalize_axis(axis.value_or(0), x.ndim(), "cumprod");
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  detail::visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for_lines<T>(x, out, a, [](const T* p, T* o, std::int64_t len, std::int64_t s) {
      T acc{1};
      for (std::int64_t i = 0; i < len; ++i) o[i * s] = acc *= p[i * s];
    });
  });
  if (x.dtype() == DType::float32 && autodiff::recording())
    autodiff::record(out, {x}, [x, a](const Tensor& g0, const std::vector<bool>&) {
      const Tensor g = g0.dtype() == DType::float32 ? g0 : g0.astype(DType::float32);
      Tensor d = Tensor::empty(x.shape());
      const Lines l = lines_of(x, a);
      kernels::parallel_rows(l.outer * l.inner, l.len, [&](std::int64_t r) {
        const std::int64_t start = (r / l.inner) * l.len * l.inner + r % l.inner;
        cumprod_grad_line(x.data<float>() + start, g.data<float>() + start, d.data<float>() + start, l.len, l.inner);
      });
      return std::vector<Tensor>{d};
    });
  return out;
}

}  // namespace keras::ops

namespace keras::ops {
namespace {

// Products of the rows of a [rows, len] tensor; the float gradient is the product of the others in the row.
Tensor prod_rows(const Tensor& m) {
  const std::int64_t rows = m.dim(0), len = m.dim(1);
  Tensor out = Tensor::empty({rows}, m.dtype());
  detail::visit_dtype(m.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = m.data<T>();
    T* o = out.data<T>();
    kernels::parallel_rows(rows, len, [&](std::int64_t r) {
      T acc{1};
      for (std::int64_t i = 0; i < len; ++i) acc *= p[r * len + i];
      o[r] = acc;
    });
  });
  if (m.dtype() == DType::float32 && autodiff::recording())
    autodiff::record(out, {m}, [m, rows, len](const Tensor& g, const std::vector<bool>&) {
      Tensor d = Tensor::empty(m.shape());
      const float* p = m.data<float>();
      float* pd = d.data<float>();
      kernels::parallel_rows(rows, len, [&](std::int64_t r) {
        // Prefix and suffix products: exact when the row holds zeros.
        const float* x = p + r * len;
        float* dr = pd + r * len;
        double prefix = 1;
        for (std::int64_t i = 0; i < len; ++i) {
          dr[i] = static_cast<float>(prefix);
          prefix *= x[i];
        }
        double suffix = g.data<float>()[r];
        for (std::int64_t i = len; i-- > 0;) {
          dr[i] = static_cast<float>(dr[i] * suffix);
          suffix *= x[i];
        }
      });
      return std::vector<Tensor>{d};
    });
  return out;
}

}  // namespace

Tensor prod(const Tensor& x0, std::vector<int> axes, bool keepdims) {
  const Tensor x = numeric_input(x0, "prod");
  const int rank = x.ndim();
  std::vector<bool> reduced(static_cast<std::size_t>(rank), axes.empty());
  for (int ax : axes) reduced[static_cast<std::size_t>(detail::normalize_axis(ax, rank, "prod"))] = true;
  std::vector<int> perm;
  Shape out_shape, kept_shape;
  std::int64_t rows = 1, len = 1;
  for (int d = 0; d < rank; ++d)
    if (!reduced[static_cast<std::size_t>(d)]) {
      perm.push_back(d);
      rows *= x.dim(d);
      out_shape.push_back(x.dim(d));
      kept_shape.push_back(x.dim(d));
    } else {
      kept_shape.push_back(1);
    }
  for (int d = 0; d < rank; ++d)
    if (reduced[static_cast<std::size_t>(d)]) {
      perm.push_back(d);
      len *= x.dim(d);
    }
  const Tensor moved = permute_axes(x, perm);
  const Tensor p = prod_rows(reshape(moved, {rows, len}));
  return reshape(p, keepdims ? kept_shape : out_shape);
}

}  // namespace keras::ops
