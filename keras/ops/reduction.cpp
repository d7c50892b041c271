// Reductions from keras/ops/math.hpp: sum, mean, max, argmax, and the broadcast-undoing reduce_to_shape.
#include <algorithm>

#include <limits>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/reduction.hpp"
#include "keras/kernels/scratch.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"
#include "keras/ops/sorting.hpp"

namespace keras::ops {
namespace {

std::vector<std::size_t> normalize_axes(const Tensor& x, const std::vector<int>& axes, const char* op) {
  std::vector<std::size_t> out;
  if (axes.empty()) {
    for (int i = 0; i < x.ndim(); ++i) out.push_back(static_cast<std::size_t>(i));
    return out;
  }
  for (int a : axes) {
    const int n = a < 0 ? a + x.ndim() : a;
    if (n < 0 || n >= x.ndim())
      throw ValueError(std::string(op) + ": axis " + std::to_string(a) + " is out of range for shape " +
                       shape_str(x.shape()));
    out.push_back(static_cast<std::size_t>(n));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Shape reduced_shape(const Shape& s, const std::vector<std::size_t>& axes, bool keepdims) {
  Shape out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) out.push_back(s[i]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

Tensor float_input(const Tensor& x) {
  if (!x.defined()) throw ValueError("A reduction received an undefined tensor");
  return x.dtype() == DType::float32 ? x : x.astype(DType::float32);
}

// Broadcasts a gradient of the reduced shape back over the input's shape.
Tensor expand_grad(const Tensor& g, const Shape& input_shape, const std::vector<std::size_t>& axes) {
  Tensor kept = reshape(g, reduced_shape(input_shape, axes, true));
  return multiply(kept, jit::constant(Tensor::ones(input_shape)));
}

// Large float32 reductions over trailing axes (the last k, all of them included) on oneDNN's reduction
// primitive, 30-100x faster there than the loop below; false otherwise (then the loop). oneDNN 2.6 reduces
// leading axes with a reference kernel slower than the loop (a conv bias gradient: 5x), so those stay here.
bool reduce_on_onednn(kernels::Reduce kind, const Tensor& x, const std::vector<std::size_t>& axes, Tensor& out) {
  if (x.dtype() != DType::float32 || axes.empty() || x.size() < kernels::kReductionMinElements) return false;
  const std::size_t nd = x.shape().size();
  for (auto a : axes)
    if (a < nd - axes.size()) return false;  // not among the last axes.size() axes (axes are distinct)
  const Shape& in = x.shape();
  Shape kept = in;
  for (auto a : axes) kept[a] = 1;
  return kernels::reduce(kind, x.data<float>(), in, kept, out.data<float>());
}

// Reduces x over `axes` into out (shaped with keepdims) with op(acc, v), starting from init.
template <class Op, class T = float>
void reduce_into(const Tensor& x, const std::vector<std::size_t>& axes, Tensor& out, T init, Op op) {
  const Shape& s = x.shape();
  const std::size_t nd = s.size();
  std::vector<std::int64_t> out_stride(nd, 0);
  std::int64_t stride = 1;
  for (std::size_t d = nd; d-- > 0;) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
      out_stride[d] = stride;
      stride *= s[d];
    }
  }
  T* po = out.data<T>();
  std::fill_n(po, out.size(), init);
  const T* px = x.data<T>();
  std::vector<std::size_t> sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty() && sorted.back() - sorted.front() + 1 == sorted.size()) {
    // Adjacent axes (a global pooling's rows and columns, a mean over the last axes): x is [outer, reduced,
    // inner], each reduced row op'd into its outer slot's inner values at once, which vectorizes.
    std::int64_t outer = 1, reduced = 1, inner = 1;
    for (std::size_t d = 0; d < nd; ++d) (d < sorted.front() ? outer : d <= sorted.back() ? reduced : inner) *= s[d];
    for (std::int64_t o = 0; o < outer; ++o) {
      T* __restrict acc = po + o * inner;
      for (std::int64_t r = 0; r < reduced; ++r) {
        const T* __restrict row = px + (o * reduced + r) * inner;
        for (std::int64_t i = 0; i < inner; ++i) acc[i] = op(acc[i], row[i]);
      }
    }
    return;
  }
  std::vector<std::int64_t> idx(nd, 0);
  std::int64_t o = 0;
  for (std::int64_t i = 0, n = x.size(); i < n; ++i) {
    po[o] = op(po[o], px[i]);
    for (std::size_t d = nd; d-- > 0;) {  // advance the multi-index, keeping the output offset in step
      o += out_stride[d];
      if (++idx[d] < s[d]) break;
      o -= out_stride[d] * s[d];
      idx[d] = 0;
    }
  }
}

// dx of max over the adjacent axes `axes` of x: each window's g shared equally between its maxima (x == out).
// x is [outer, reduced, inner] in effect; out and g [outer, inner].
void max_grad_into(const Tensor& x, const Tensor& out, const Tensor& g, Tensor& dx,
                   const std::vector<std::size_t>& axes) {
  auto compute = [](const Tensor& x, const Tensor& out, const Tensor& g, Tensor dx, std::vector<std::size_t> axes) {
    const Shape& s = x.shape();
    std::int64_t outer = 1, reduced = 1, inner = 1;
    for (std::size_t d = 0; d < s.size(); ++d)
      (d < axes.front() ? outer : d <= axes.back() ? reduced : inner) *= s[d];
    const float* px = x.data<float>();
    const float* pm = out.data<float>();
    const float* pg = g.data<float>();
    float* pd = dx.data<float>();
    kernels::parallel_rows(outer, reduced * inner, [&](std::int64_t o) {
      // share: g / the number of maxima; rest: 0, or NaN where a NaN maximum matched nothing (as 0 / 0 would).
      // This thread's buffers, not one allocation per row (a max over the last axis has a row per element).
      thread_local kernels::Scratch share, rest;
      const float* __restrict m = pm + o * inner;
      const float* __restrict gr = pg + o * inner;
      float* __restrict c = share.floats(inner);
      float* __restrict z = rest.floats(inner);
      std::fill(c, c + inner, 0.0f);
      for (std::int64_t r = 0; r < reduced; ++r) {
        const float* __restrict xr = px + (o * reduced + r) * inner;
        for (std::int64_t i = 0; i < inner; ++i) c[i] += xr[i] == m[i] ? 1.0f : 0.0f;
      }
      for (std::int64_t i = 0; i < inner; ++i) {
        z[i] = c[i] == 0.0f ? std::numeric_limits<float>::quiet_NaN() : 0.0f;
        c[i] = gr[i] / c[i];
      }
      for (std::int64_t r = 0; r < reduced; ++r) {
        const float* __restrict xr = px + (o * reduced + r) * inner;
        float* __restrict dr = pd + (o * reduced + r) * inner;
        for (std::int64_t i = 0; i < inner; ++i) dr[i] = xr[i] == m[i] ? c[i] : z[i];
      }
      share.release();  // (only rows past Scratch::kKeptFloats give their buffers back)
      rest.release();
    });
  };
  compute(x, out, g, dx, axes);
  if (jit::tracing()) jit::capture("max_grad", {x, out, g}, {dx}, [=] { compute(x, out, g, dx, axes); });
}

}  // namespace

Tensor sum(const Tensor& x0, std::vector<int> axes_in, bool keepdims) {
  if (x0.defined() && x0.dtype() == DType::float64) {  // in double precision
    auto axes = normalize_axes(x0, axes_in, "sum");
    Tensor out = Tensor::empty(reduced_shape(x0.shape(), axes, keepdims), DType::float64);
    reduce_into(x0, axes, out, 0.0, [](double acc, double v) { return acc + v; });
    if (autodiff::recording()) {
      Shape in_shape = x0.shape();
      autodiff::record(out, {x0}, [in_shape, axes](const Tensor& g, const std::vector<bool>&) {
        return std::vector<Tensor>{expand_grad(g, in_shape, axes)};
      }, {.name = "sum", .differentiable_backward = true});
    }
    return out;
  }
  Tensor x = float_input(x0);
  auto axes = normalize_axes(x, axes_in, "sum");
  Tensor out = Tensor::empty(reduced_shape(x.shape(), axes, keepdims));
  auto compute = [](const Tensor& x, const std::vector<std::size_t>& axes, Tensor out) {
    if (!reduce_on_onednn(kernels::Reduce::sum, x, axes, out))
      reduce_into(x, axes, out, 0.f, [](float acc, float v) { return acc + v; });
  };
  compute(x, axes, out);
  if (jit::tracing()) jit::capture("sum", {x}, {out}, [=] { compute(x, axes, out); });
  if (autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, axes](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{expand_grad(g, in_shape, axes)};
    }, {.name = "sum", .differentiable_backward = true});
  }
  return out;
}

Tensor mean(const Tensor& x0, std::vector<int> axes_in, bool keepdims) {
  const bool f64 = x0.defined() && x0.dtype() == DType::float64;
  Tensor x = f64 ? x0 : float_input(x0);
  auto axes = normalize_axes(x, axes_in, "mean");
  std::int64_t count = 1;
  for (auto a : axes) count *= x.shape()[a];
  const double scale = count ? 1.0 / static_cast<double>(count) : 0.0;
  if (f64) return multiply(sum(x, axes_in, keepdims), Tensor::full({}, scale, DType::float64));
  return multiply(sum(x, axes_in, keepdims), jit::constant(Tensor::scalar(count ? 1.f / static_cast<float>(count) : 0.f)));
}

Tensor max(const Tensor& x0, std::vector<int> axes_in, bool keepdims) {
  if (x0.defined() && x0.dtype() == DType::float64) {  // forward only, in double precision
    if (x0.size() == 0) throw ValueError("max of an empty tensor of shape " + shape_str(x0.shape()));
    auto axes = normalize_axes(x0, axes_in, "max");
    Tensor out = Tensor::empty(reduced_shape(x0.shape(), axes, keepdims), DType::float64);
    reduce_into(x0, axes, out, -std::numeric_limits<double>::infinity(),
                [](double acc, double v) { return v > acc ? v : acc; });
    return out;
  }
  Tensor x = float_input(x0);
  if (x.size() == 0) throw ValueError("max of an empty tensor of shape " + shape_str(x.shape()));
  auto axes = normalize_axes(x, axes_in, "max");
  Tensor out = Tensor::empty(reduced_shape(x.shape(), axes, keepdims));
  auto compute = [](const Tensor& x, const std::vector<std::size_t>& axes, Tensor out) {
    if (!reduce_on_onednn(kernels::Reduce::max, x, axes, out))
      reduce_into(x, axes, out, -std::numeric_limits<float>::infinity(),
                  [](float acc, float v) { return v > acc ? v : acc; });
  };
  compute(x, axes, out);
  if (jit::tracing()) jit::capture("max", {x}, {out}, [=] { compute(x, axes, out); });
  if (autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [x, out, in_shape, axes](const Tensor& g, const std::vector<bool>&) {
      // The gradient goes to the maxima (shared equally between ties): one pass when the reduced axes
      // are adjacent and no outer tape differentiates this backward pass.
      if (!autodiff::recording() && axes.back() - axes.front() + 1 == axes.size()) {
        Tensor dx = Tensor::empty(in_shape);
        max_grad_into(x, out, g.dtype() == DType::float32 ? g : g.astype(DType::float32), dx, axes);
        return std::vector<Tensor>{dx};
      }
      Tensor mask = equal(x, out.reshape(reduced_shape(in_shape, axes, true)));
      Tensor counts = sum(mask, std::vector<int>(axes.begin(), axes.end()), true);
      return std::vector<Tensor>{divide(multiply(mask, expand_grad(g, in_shape, axes)), counts)};
    }, {.name = "max", .differentiable_backward = true});
  }
  return out;
}

namespace {
// Index of the first largest (or smallest) value along `axis`, as `index_dtype`.
Tensor arg_extremum(const Tensor& x0, int axis, bool largest, DType index_dtype, const char* op) {
  Tensor x = float_input(x0);
  auto axes = normalize_axes(x, {axis}, op);
  if (x.dim(static_cast<int>(axes[0])) == 0)
    throw ValueError(std::string(op) + " over an empty axis of shape " + shape_str(x.shape()));
  const auto a = static_cast<int>(axes[0]);
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; ++d) outer *= x.dim(d);
  for (int d = a + 1; d < x.ndim(); ++d) inner *= x.dim(d);
  const auto len = x.dim(a);
  Tensor out = Tensor::empty(reduced_shape(x.shape(), axes, false), DType::int64);
  const float* px = x.data<float>();
  auto* po = out.data<std::int64_t>();
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t i = 0; i < inner; ++i) {
      std::int64_t best = 0;
      for (std::int64_t k = 1; k < len; ++k) {
        const float v = px[(o * len + k) * inner + i], b = px[(o * len + best) * inner + i];
        if (largest ? v > b : v < b) best = k;
      }
      po[o * inner + i] = best;
    }
  return index_dtype == DType::int64 ? out : out.astype(index_dtype);
}
}  // namespace

Tensor argmax(const Tensor& x, int axis) { return arg_extremum(x, axis, true, DType::int64, "argmax"); }
Tensor argmin(const Tensor& x, int axis) { return arg_extremum(x, axis, false, DType::int32, "argmin"); }

Tensor reduce_to_shape(const Tensor& grad, const Shape& shape) {
  if (grad.shape() == shape) return grad;
  const int extra = grad.ndim() - static_cast<int>(shape.size());
  std::vector<int> axes;
  for (int i = 0; i < grad.ndim(); ++i)
    if (i < extra || (shape[i - extra] == 1 && grad.shape()[i] != 1)) axes.push_back(i);
  Tensor r = axes.empty() ? grad : sum(grad, axes, false);
  return reshape(r, shape);
}

}  // namespace keras::ops
