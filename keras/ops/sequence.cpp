#include "keras/ops/sequence.hpp"

#include <cstring>
#include <string>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::ops {
namespace {

Tensor as_float(const Tensor& t, const char* op) {
  if (!t.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

void check_sequence(const Tensor& x, const char* op) {
  if (x.ndim() < 2)
    throw ValueError(std::string(op) + " expects a tensor shaped [batch, time, ...], got shape " + shape_str(x.shape()));
}

// Copies `rows` blocks of `width` floats from src (row stride src_stride) to dst (row stride dst_stride).
void copy_rows(const float* src, std::int64_t src_stride, float* dst, std::int64_t dst_stride, std::int64_t rows,
               std::int64_t width) {
  kernels::parallel_rows(rows, width, [&](std::int64_t r) {
    std::memcpy(dst + r * dst_stride, src + r * src_stride, sizeof(float) * static_cast<std::size_t>(width));
  });
}

// Adds `rows` blocks of `width` floats from src into dst.
void add_rows(const float* src, std::int64_t src_stride, float* dst, std::int64_t dst_stride, std::int64_t rows,
              std::int64_t width) {
  kernels::parallel_rows(rows, width, [&](std::int64_t r) {
    for (std::int64_t i = 0; i < width; ++i) dst[r * dst_stride + i] += src[r * src_stride + i];
  });
}

}  // namespace

Tensor time_step(const Tensor& x0, std::int64_t t) {
  Tensor x = as_float(x0, "time_step");
  check_sequence(x, "time_step");
  const auto N = x.dim(0), T = x.dim(1), F = T ? x.size() / (N * T) : 0;
  if (t < 0 || t >= T)
    throw ValueError("time_step: step " + std::to_string(t) + " is out of range for shape " + shape_str(x.shape()));
  Shape shape = x.shape();
  shape.erase(shape.begin() + 1);
  Tensor out = Tensor::empty(shape);
  copy_rows(x.data<float>() + t * F, T * F, out.data<float>(), F, N, F);
  if (autodiff::recording()) {
    const Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, N, T, F, t](const Tensor& g, const std::vector<bool>&) {
      Tensor dx = Tensor::zeros(in_shape);
      copy_rows(g.data<float>(), F, dx.data<float>() + t * F, T * F, N, F);
      return std::vector<Tensor>{dx};
    }, {.name = "time_step"});
  }
  return out;
}

std::vector<Tensor> unstack_time(const Tensor& x) {
  check_sequence(x, "unstack_time");
  std::vector<Tensor> out;
  for (std::int64_t t = 0; t < x.dim(1); ++t) out.push_back(time_step(x, t));
  return out;
}

Tensor stack_time(const std::vector<Tensor>& steps0) {
  if (steps0.empty()) throw ValueError("stack_time needs at least one time step");
  std::vector<Tensor> steps;
  for (const auto& s : steps0) steps.push_back(as_float(s, "stack_time"));
  const Shape step_shape = steps[0].shape();
  if (step_shape.empty()) throw ValueError("stack_time: time steps must be shaped [batch, ...], got a scalar");
  for (const auto& s : steps)
    if (s.shape() != step_shape)
      throw ValueError("stack_time: time steps of shapes " + shape_str(step_shape) + " and " + shape_str(s.shape()) +
                       " differ");
  const auto N = step_shape[0], T = static_cast<std::int64_t>(steps.size()), F = N ? steps[0].size() / N : 0;
  Shape shape = step_shape;
  shape.insert(shape.begin() + 1, T);
  Tensor out = Tensor::empty(shape);
  for (std::int64_t t = 0; t < T; ++t) copy_rows(steps[t].data<float>(), F, out.data<float>() + t * F, T * F, N, F);
  if (autodiff::recording()) {
    autodiff::record(out, steps, [step_shape, N, T, F](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(T);
      for (std::int64_t t = 0; t < T; ++t) {
        if (!needs[t]) continue;
        grads[t] = Tensor::empty(step_shape);
        copy_rows(g.data<float>() + t * F, T * F, grads[t].data<float>(), F, N, F);
      }
      return grads;
    }, {.name = "stack_time"});
  }
  return out;
}

namespace {
Tensor reversed(const Tensor& x) {
  const auto N = x.dim(0), T = x.dim(1), F = T ? x.size() / (N * T) : 0;
  Tensor out = Tensor::empty(x.shape());
  for (std::int64_t t = 0; t < T; ++t)
    copy_rows(x.data<float>() + t * F, T * F, out.data<float>() + (T - 1 - t) * F, T * F, N, F);
  return out;
}
}  // namespace

Tensor reverse_time(const Tensor& x0) {
  Tensor x = as_float(x0, "reverse_time");
  check_sequence(x, "reverse_time");
  Tensor out = reversed(x);
  if (autodiff::recording())
    autodiff::record(out, {x}, [](const Tensor& g, const std::vector<bool>&) { return std::vector<Tensor>{reversed(g)}; }, {.name = "reverse_time"});
  return out;
}

Tensor slice_last(const Tensor& x0, std::int64_t begin, std::int64_t size) {
  Tensor x = as_float(x0, "slice_last");
  if (x.ndim() < 1 || begin < 0 || size < 0 || begin + size > x.dim(-1))
    throw ValueError("slice_last: [" + std::to_string(begin) + ", " + std::to_string(begin + size) +
                     ") is out of range for shape " + shape_str(x.shape()));
  const auto F = x.dim(-1), R = F ? x.size() / F : 0;
  Shape shape = x.shape();
  shape.back() = size;
  Tensor out = Tensor::empty(shape);
  copy_rows(x.data<float>() + begin, F, out.data<float>(), size, R, size);
  if (autodiff::recording()) {
    const Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, R, F, begin, size](const Tensor& g, const std::vector<bool>&) {
      Tensor dx = Tensor::zeros(in_shape);
      copy_rows(g.data<float>(), size, dx.data<float>() + begin, F, R, size);
      return std::vector<Tensor>{dx};
    }, {.name = "slice_last"});
  }
  return out;
}

Tensor concat_last(const std::vector<Tensor>& parts0) {
  if (parts0.empty()) throw ValueError("concat_last needs at least one tensor");
  std::vector<Tensor> parts;
  std::int64_t F = 0;
  for (const auto& p : parts0) {
    parts.push_back(as_float(p, "concat_last"));
    const Shape& a = parts.back().shape();
    const Shape& b = parts.front().shape();
    if (a.empty() || a.size() != b.size() || !std::equal(a.begin(), a.end() - 1, b.begin()))
      throw ValueError("concat_last: shapes " + shape_str(b) + " and " + shape_str(a) +
                       " differ outside the last axis");
    F += a.back();
  }
  Shape shape = parts[0].shape();
  shape.back() = F;
  const auto R = parts[0].dim(-1) ? parts[0].size() / parts[0].dim(-1) : 0;
  Tensor out = Tensor::empty(shape);
  std::vector<std::int64_t> offsets;
  std::int64_t off = 0;
  for (const auto& p : parts) {
    offsets.push_back(off);
    copy_rows(p.data<float>(), p.dim(-1), out.data<float>() + off, F, R, p.dim(-1));
    off += p.dim(-1);
  }
  if (autodiff::recording()) {
    std::vector<Shape> shapes;
    for (const auto& p : parts) shapes.push_back(p.shape());
    autodiff::record(out, parts, [shapes, offsets, R, F](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(shapes.size());
      for (std::size_t i = 0; i < shapes.size(); ++i) {
        if (!needs[i]) continue;
        grads[i] = Tensor::empty(shapes[i]);
        copy_rows(g.data<float>() + offsets[i], F, grads[i].data<float>(), shapes[i].back(), R, shapes[i].back());
      }
      return grads;
    }, {.name = "concat_last"});
  }
  return out;
}

Tensor gather(const Tensor& params0, const Tensor& indices) {
  Tensor params = as_float(params0, "gather");
  if (params.ndim() < 1) throw ValueError("gather: params must have at least one axis, got a scalar");
  if (!indices.defined()) throw ValueError("gather received undefined indices");
  const auto rows = params.dim(0), D = rows ? params.size() / rows : 0, K = indices.size();
  Shape shape = indices.shape();
  shape.insert(shape.end(), params.shape().begin() + 1, params.shape().end());
  Tensor out = Tensor::empty(shape);
  Tensor ids = Tensor::empty(indices.shape(), DType::int64);  // the indices as int64, kept for the gradient
  // Also the replay of a compiled function (Embedding's lookup), with the new batch's indices.
  auto compute = [rows, D, K](const Tensor& params, const Tensor& indices, Tensor ids, Tensor out) {
    if (K == 0) return;
    const Tensor converted = indices.astype(DType::int64);
    std::memcpy(ids.data<std::int64_t>(), converted.data<std::int64_t>(), sizeof(std::int64_t) * K);
    const auto* pi = ids.data<std::int64_t>();
    for (std::int64_t k = 0; k < K; ++k)
      if (pi[k] < 0 || pi[k] >= rows)
        throw ValueError("gather: indices[" + std::to_string(k) + "] = " + std::to_string(pi[k]) + " is not in [0, " +
                         std::to_string(rows) + ")");
    const float* pp = params.data<float>();
    float* po = out.data<float>();
    kernels::parallel_rows(K, D, [&](std::int64_t k) {
      std::memcpy(po + k * D, pp + pi[k] * D, sizeof(float) * static_cast<std::size_t>(D));
    });
  };
  compute(params, indices, ids, out);
  if (jit::tracing()) jit::capture("gather", {params, indices}, {out, ids}, [=] { compute(params, indices, ids, out); });
  if (autodiff::recording()) {
    const Shape p_shape = params.shape();
    autodiff::record(out, {params}, [p_shape, ids, K, D](const Tensor& g, const std::vector<bool>&) {
      Tensor dp = Tensor::empty(p_shape);
      auto scatter = [K, D](const Tensor& g, const Tensor& ids, Tensor dp) {
        if (dp.nbytes() > 0) std::memset(dp.data<float>(), 0, dp.nbytes());
        const auto* pi = ids.data<std::int64_t>();
        const float* pg = g.data<float>();
        float* pd = dp.data<float>();
        for (std::int64_t k = 0; k < K; ++k) add_rows(pg + k * D, D, pd + pi[k] * D, D, 1, D);
      };
      scatter(g, ids, dp);
      if (jit::tracing()) jit::capture("gather_grad", {g, ids}, {dp}, [=] { scatter(g, ids, dp); });
      return std::vector<Tensor>{dp};
    }, {.name = "gather"});
  }
  return out;
}

}  // namespace keras::ops
