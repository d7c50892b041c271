// Element-wise ops from keras/ops/math.hpp: binary arithmetic with broadcasting, unary math.
#include <algorithm>
#include <cmath>
#include <vector>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/eltwise.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/map_elements.hpp"
#include "keras/ops/comparison.hpp"
#include "keras/ops/float64_paths.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::ops {
namespace {

Tensor as_float(const Tensor& t) {
  if (!t.defined()) throw ValueError("An op received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

Shape broadcast_shape(const Shape& a, const Shape& b, const char* op) {
  Shape out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto da = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
    const auto db = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ValueError(std::string(op) + ": shapes " + shape_str(a) + " and " + shape_str(b) +
                       " cannot be broadcast together");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// out = f(a, b) element-wise over the broadcast shape of a and b, as runs of the innermost axes (as many as
// each operand either spans or repeats throughout) under a loop over the other axes.
struct BroadcastRuns {
  std::int64_t run = 1;                      // elements per run
  bool a_repeats = false, b_repeats = false;  // whether a (b) gives one value to the whole run
  std::vector<std::int64_t> outer, a_step, b_step;  // the other axes: sizes, and a's and b's strides over them
};

BroadcastRuns broadcast_runs(const Shape& a, const Shape& b, const Shape& out) {
  const auto rank = static_cast<std::int64_t>(out.size());
  auto dim = [rank](const Shape& s, std::int64_t d) {
    const auto at = d - (rank - static_cast<std::int64_t>(s.size()));
    return at < 0 ? std::int64_t{1} : s[at];
  };
  // Each operand's row-major strides, on the axes of out (0 where it repeats).
  std::vector<std::int64_t> a_stride(rank), b_stride(rank);
  for (std::int64_t d = rank - 1, sa = 1, sb = 1; d >= 0; --d) {
    a_stride[d] = dim(a, d) == 1 ? 0 : sa;
    b_stride[d] = dim(b, d) == 1 ? 0 : sb;
    sa *= dim(a, d);
    sb *= dim(b, d);
  }
  std::vector<std::int64_t> axes;  // the axes longer than 1
  for (std::int64_t d = 0; d < rank; ++d)
    if (out[d] != 1) axes.push_back(d);
  BroadcastRuns r;
  if (axes.empty()) return r;
  std::size_t first = axes.size() - 1;
  r.a_repeats = a_stride[axes[first]] == 0;
  r.b_repeats = b_stride[axes[first]] == 0;
  r.run = out[axes[first]];
  while (first > 0 && (a_stride[axes[first - 1]] == 0) == r.a_repeats &&
         (b_stride[axes[first - 1]] == 0) == r.b_repeats)
    r.run *= out[axes[--first]];
  for (std::size_t i = 0; i < first; ++i) {
    r.outer.push_back(out[axes[i]]);
    r.a_step.push_back(a_stride[axes[i]]);
    r.b_step.push_back(b_stride[axes[i]]);
  }
  return r;
}

template <class ScalarF>
void apply_into(const Tensor& a, const Tensor& b, const Tensor& out, ScalarF scalar_f) {
  const float* pa = a.data<float>();
  const float* pb = b.data<float>();
  float* po = out.data<float>();
  const BroadcastRuns r = broadcast_runs(a.shape(), b.shape(), out.shape());
  // Per-thread pieces of the output, each run a plain loop compiled for the CPU's best vector
  // instructions (kernels/cpu_dispatch.hpp). out may be a or b itself: each element is read before it is
  // written at the same index, so the pointers are not __restrict.
  kernels::parallel_ranges(out.size(), [&](std::int64_t begin, std::int64_t end) {
    kernels::with_best_cpu([&] {
      // Where the first run of the piece starts in a and b; the axes' indices then advance run by run.
      const auto axes = static_cast<std::int64_t>(r.outer.size());
      std::vector<std::int64_t> index(axes);
      std::int64_t at_a = 0, at_b = 0;
      for (std::int64_t d = axes - 1, rest = begin / r.run; d >= 0; --d) {
        index[d] = rest % r.outer[d];
        rest /= r.outer[d];
        at_a += index[d] * r.a_step[d];
        at_b += index[d] * r.b_step[d];
      }
      for (std::int64_t row = begin / r.run; row * r.run < end; ++row) {
        const std::int64_t c0 = std::max(begin - row * r.run, std::int64_t{0}), c1 = std::min(end - row * r.run, r.run);
        const float* ra = pa + at_a;
        const float* rb = pb + at_b;
        float* ro = po + row * r.run;
        if (r.a_repeats) {
          const float s = ra[0];
#pragma omp simd
          for (std::int64_t c = c0; c < c1; ++c) ro[c] = scalar_f(s, rb[c]);
        } else if (r.b_repeats) {
          const float s = rb[0];
#pragma omp simd
          for (std::int64_t c = c0; c < c1; ++c) ro[c] = scalar_f(ra[c], s);
        } else {
#pragma omp simd
          for (std::int64_t c = c0; c < c1; ++c) ro[c] = scalar_f(ra[c], rb[c]);
        }
        for (std::int64_t d = axes - 1; d >= 0; --d) {  // the next run
          at_a += r.a_step[d];
          at_b += r.b_step[d];
          if (++index[d] < r.outer[d]) break;
          at_a -= r.a_step[d] * r.outer[d];
          at_b -= r.b_step[d] * r.outer[d];
          index[d] = 0;
        }
      }
    });
  });
}

// Applies f element-wise with broadcasting. `scratch`, when defined, is a float tensor nobody else holds
// (a fresh conversion of an input to float): the result is written over it when the shapes allow,
// instead of into a new tensor.
template <class ScalarF>
Tensor broadcast_apply(const Tensor& a, const Tensor& b, ScalarF scalar_f, const char* op,
                       const Tensor& scratch = Tensor()) {
  const Shape out_shape = broadcast_shape(a.shape(), b.shape(), op);
  const bool reusable = scratch.defined() && scratch.shape() == out_shape &&
                        ((scratch.id() == a.id() && (b.size() == 1 || b.shape() == out_shape)) ||
                         (scratch.id() == b.id() && (a.size() == 1 || a.shape() == out_shape)));
  Tensor out = reusable ? scratch : Tensor::empty(out_shape);
  apply_into(a, b, out, scalar_f);
  if (jit::tracing()) jit::capture(op, {a, b}, {out}, [=] { apply_into(a, b, out, scalar_f); });
  return out;
}

// The float conversion of a0 or b0 that the op may overwrite: one made here from a non-float input
// (so nobody else holds it), outside a recording tape (whose backward closures keep the inputs).
Tensor scratch_input(const Tensor& a0, const Tensor& a, const Tensor& b0, const Tensor& b) {
  if (autodiff::recording()) return Tensor();
  if (a0.dtype() != DType::float32) return a;
  if (b0.dtype() != DType::float32) return b;
  return Tensor();
}

// Records a binary op whose local derivatives are da(a, b, out) and db(a, b, out), element-wise.
// The local derivatives are recorded ops (masks of comparisons are constants), so an outer tape can
// differentiate this backward pass.
template <class DA, class DB>
void record_binary(const char* op, const Tensor& out, const Tensor& a, const Tensor& b, DA da, DB db) {
  if (!autodiff::recording()) return;
  autodiff::record(out, {a, b}, [a, b, out, da, db](const Tensor& g, const std::vector<bool>& needs) {
    std::vector<Tensor> grads(2);
    if (needs[0]) grads[0] = reduce_to_shape(da(g, a, b, out), a.shape());
    if (needs[1]) grads[1] = reduce_to_shape(db(g, a, b, out), b.shape());
    return grads;
  }, {.name = op, .differentiable_backward = true});
}

// The float64 path of a binary op: computed in double precision, its backward the same recorded local
// derivatives as the float32 path (so float64 gradients flow, to any order).
Tensor binary64(detail::BinaryF64 op, const char* name, const Tensor& a, const Tensor& b) {
  using B = detail::BinaryF64;
  Tensor out = detail::binary_f64(a, b, op);
  auto pass = [](auto& g, auto&, auto&, auto&) { return g; };
  switch (op) {
    case B::add: record_binary(name, out, a, b, pass, pass); break;
    case B::subtract:
      record_binary(name, out, a, b, pass, [](auto& g, auto&, auto&, auto&) { return negative(g); });
      break;
    case B::multiply:
      record_binary(name, out, a, b, [](auto& g, auto&, auto& b, auto&) { return multiply(g, b); },
                    [](auto& g, auto& a, auto&, auto&) { return multiply(g, a); });
      break;
    case B::divide:
      record_binary(name, out, a, b, [](auto& g, auto&, auto& b, auto&) { return divide(g, b); },
                    [](auto& g, auto&, auto& b, auto& out) { return negative(divide(multiply(g, out), b)); });
      break;
    case B::maximum:
      record_binary(name, out, a, b, [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater_equal(a, b)); },
                    [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater(b, a)); });
      break;
    case B::minimum:
      record_binary(name, out, a, b, [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::less_equal(a, b)); },
                    [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater(a, b)); });
      break;
  }
  return out;
}

template <class F>
Tensor map_unary(const Tensor& x, F f) {
  return detail::map_elements(x, f);
}

}  // namespace

Tensor add(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::add, "add", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x + y; }, "add",
                               scratch_input(a0, a, b0, b));
  record_binary("add", out, a, b, [](auto& g, auto&, auto&, auto&) { return g; },
                [](auto& g, auto&, auto&, auto&) { return g; });
  return out;
}

Tensor subtract(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::subtract, "subtract", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x - y; }, "subtract",
                               scratch_input(a0, a, b0, b));
  record_binary("subtract", out, a, b, [](auto& g, auto&, auto&, auto&) { return g; },
                [](auto& g, auto&, auto&, auto&) { return negative(g); });
  return out;
}

Tensor multiply(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::multiply, "multiply", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x * y; }, "multiply",
                               scratch_input(a0, a, b0, b));
  record_binary("multiply", out, a, b, [](auto& g, auto&, auto& b, auto&) { return multiply(g, b); },
                [](auto& g, auto& a, auto&, auto&) { return multiply(g, a); });
  return out;
}

Tensor divide(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::divide, "divide", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x / y; }, "divide",
                               scratch_input(a0, a, b0, b));
  record_binary("divide", out, a, b, [](auto& g, auto&, auto& b, auto&) { return divide(g, b); },
                [](auto& g, auto&, auto& b, auto& out) { return negative(divide(multiply(g, out), b)); });
  return out;
}

Tensor maximum(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::maximum, "maximum", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x >= y ? x : y; }, "maximum");
  record_binary("maximum", out, a, b, [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater_equal(a, b)); },
                [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater(b, a)); });
  return out;
}

Tensor minimum(const Tensor& a0, const Tensor& b0) {
  if (detail::any_float64(a0, b0)) return binary64(detail::BinaryF64::minimum, "minimum", a0, b0);
  Tensor a = as_float(a0), b = as_float(b0);
  Tensor out = broadcast_apply(a, b, [](float x, float y) { return x <= y ? x : y; }, "minimum");
  record_binary("minimum", out, a, b, [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::less_equal(a, b)); },
                [](auto& g, auto& a, auto& b, auto&) { return multiply(g, ops::greater(a, b)); });
  return out;
}

Tensor negative(const Tensor& x0) { return eltwise(x0, kernels::Eltwise::linear, -1.f, 0.f); }
Tensor exp(const Tensor& x) { return eltwise(x, kernels::Eltwise::exp); }
Tensor log(const Tensor& x0) {
  // Computed with std::log: oneDNN's eltwise log is off by ~1e-6 near 1, which shows in small losses.
  if (detail::any_float64(x0)) {
    Tensor out = detail::map_f64(x0, [](double v) { return std::log(v); });
    if (autodiff::recording())
      autodiff::record(out, {x0}, [x0](const Tensor& g, const std::vector<bool>&) { return std::vector<Tensor>{divide(g, x0)}; },
                       {.name = "log", .differentiable_backward = true});
    return out;
  }
  Tensor x = as_float(x0);
  Tensor out = map_unary(x, [](float v) { return std::log(v); });
  if (autodiff::recording())
    autodiff::record(out, {x}, [x](const Tensor& g, const std::vector<bool>&) { return std::vector<Tensor>{divide(g, x)}; },
                     {.name = "log", .differentiable_backward = true});
  return out;
}
Tensor sqrt(const Tensor& x) { return eltwise(x, kernels::Eltwise::sqrt); }
Tensor square(const Tensor& x) { return eltwise(x, kernels::Eltwise::square); }
Tensor abs(const Tensor& x) { return eltwise(x, kernels::Eltwise::abs); }
Tensor clip(const Tensor& x, float lo, float hi) { return eltwise(x, kernels::Eltwise::clip, lo, hi); }

Tensor pow(const Tensor& x0, float exponent) {
  if (detail::any_float64(x0)) {
    Tensor out = detail::map_f64(x0, [exponent](double v) { return std::pow(v, double(exponent)); });
    if (autodiff::recording())
      autodiff::record(out, {x0}, [x0, exponent](const Tensor& g, const std::vector<bool>&) {
        return std::vector<Tensor>{multiply(g, multiply(pow(x0, exponent - 1.f), Tensor::scalar(exponent)))};
      }, {.name = "pow", .differentiable_backward = true});
    return out;
  }
  Tensor x = as_float(x0);
  Tensor out = map_unary(x, [exponent](float v) { return std::pow(v, exponent); });
  if (autodiff::recording())
    autodiff::record(out, {x}, [x, exponent](const Tensor& g, const std::vector<bool>&) {
      if (autodiff::recording())  // an outer tape differentiates this backward pass
        return std::vector<Tensor>{multiply(g, multiply(pow(x, exponent - 1.f), Tensor::scalar(exponent)))};
      Tensor d = map_unary(x, [exponent](float v) { return exponent * std::pow(v, exponent - 1.f); });
      return std::vector<Tensor>{multiply(g, d)};
    }, {.name = "pow", .differentiable_backward = true});
  return out;
}

Tensor stop_gradient(const Tensor& x) { return x.clone(); }

Tensor cast(const Tensor& x, DType dtype) {
  Tensor out = x.dtype() == dtype ? x.clone() : x.astype(dtype);
  if (x.dtype() == DType::float32 && dtype == DType::float32 && autodiff::recording())
    autodiff::record(out, {x}, [](const Tensor& g, const std::vector<bool>&) { return std::vector<Tensor>{g}; },
                     {.name = "cast", .differentiable_backward = true});
  return out;
}

}  // namespace keras::ops

namespace keras {
Tensor operator+(const Tensor& a, const Tensor& b) { return ops::add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return ops::subtract(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return ops::multiply(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return ops::divide(a, b); }
Tensor operator-(const Tensor& a) { return ops::negative(a); }
Tensor operator+(const Tensor& a, float b) { return ops::add(a, jit::constant(Tensor::scalar(b))); }
Tensor operator-(const Tensor& a, float b) { return ops::subtract(a, jit::constant(Tensor::scalar(b))); }
Tensor operator*(const Tensor& a, float b) { return ops::multiply(a, jit::constant(Tensor::scalar(b))); }
Tensor operator/(const Tensor& a, float b) { return ops::divide(a, jit::constant(Tensor::scalar(b))); }
Tensor operator+(float a, const Tensor& b) { return ops::add(jit::constant(Tensor::scalar(a)), b); }
Tensor operator-(float a, const Tensor& b) { return ops::subtract(jit::constant(Tensor::scalar(a)), b); }
Tensor operator*(float a, const Tensor& b) { return ops::multiply(jit::constant(Tensor::scalar(a)), b); }
Tensor operator/(float a, const Tensor& b) { return ops::divide(jit::constant(Tensor::scalar(a)), b); }
}  // namespace keras
