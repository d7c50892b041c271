#include "keras/ops/manipulation.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

Tensor float_input(const Tensor& x, const char* op) {
  if (!x.defined()) throw ValueError(fmt::format("{} received an undefined tensor", op));
  return x.dtype() == DType::float32 ? x : x.astype(DType::float32);
}

int normalize_axis(int axis, int rank, const char* op) {
  if (axis < -rank || axis >= rank)
    throw ValueError(fmt::format("{}: axis {} is out of bounds for a tensor of rank {}", op, axis, rank));
  return axis < 0 ? axis + rank : axis;
}

Shape strides_of(const Shape& s) {
  Shape st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

// Copies a box of `box` elements from src (at src_begin) into dst (at dst_begin); rows of the last axis
// are contiguous and copied whole.
void copy_box(const Tensor& src, const Shape& src_begin, const Tensor& dst, const Shape& dst_begin, const Shape& box) {
  const std::size_t rank = box.size();
  if (shape_size(box) == 0) return;
  if (rank == 0) {
    *dst.data<float>() = *src.data<float>();
    return;
  }
  const Shape ss = strides_of(src.shape()), ds = strides_of(dst.shape());
  const std::int64_t row = box.back();
  const std::int64_t rows = shape_size(box) / row;
  const float* ps = src.data<float>();
  float* pd = dst.data<float>();
  kernels::parallel_rows(rows, row, [&](std::int64_t r) {
    std::int64_t so = src_begin.back(), dof = dst_begin.back(), rest = r;
    for (int a = static_cast<int>(rank) - 2; a >= 0; --a) {
      const std::int64_t i = rest % box[a];
      rest /= box[a];
      so += (i + src_begin[a]) * ss[a];
      dof += (i + dst_begin[a]) * ds[a];
    }
    std::memcpy(pd + dof, ps + so, static_cast<std::size_t>(row) * sizeof(float));
  });
}

}  // namespace

Tensor slice(const Tensor& x0, const Shape& begin, const Shape& size) {
  Tensor x = float_input(x0, "slice");
  if (begin.size() != x.shape().size() || size.size() != x.shape().size())
    throw ValueError(fmt::format("slice: begin {} and size {} need one entry per axis of shape {}", shape_str(begin),
                                 shape_str(size), shape_str(x.shape())));
  for (std::size_t a = 0; a < size.size(); ++a)
    if (begin[a] < 0 || size[a] < 0 || begin[a] + size[a] > x.shape()[a])
      throw ValueError(fmt::format("slice: the box at {} of size {} does not fit in shape {}", shape_str(begin),
                                   shape_str(size), shape_str(x.shape())));
  Tensor out = Tensor::empty(size);
  copy_box(x, begin, out, Shape(size.size(), 0), size);
  if (jit::tracing())
    jit::capture("slice", {x}, {out}, [=] { copy_box(x, begin, out, Shape(size.size(), 0), size); });
  if (autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, begin, size](const Tensor& g, const std::vector<bool>&) {
      Shape after(in_shape.size());  // the adjoint of a slice pads it back with zeros
      for (std::size_t a = 0; a < after.size(); ++a) after[a] = in_shape[a] - begin[a] - size[a];
      return std::vector<Tensor>{pad(g, begin, after)};
    }, {.name = "slice", .differentiable_backward = true});
  }
  return out;
}

Tensor pad(const Tensor& x0, const Shape& before, const Shape& after) {
  Tensor x = float_input(x0, "pad");
  if (before.size() != x.shape().size() || after.size() != x.shape().size())
    throw ValueError(fmt::format("pad: paddings {} and {} need one entry per axis of shape {}", shape_str(before),
                                 shape_str(after), shape_str(x.shape())));
  Shape shape = x.shape();
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (before[a] < 0 || after[a] < 0)
      throw ValueError(fmt::format("pad: paddings must be >= 0, got {} and {}", shape_str(before), shape_str(after)));
    shape[a] += before[a] + after[a];
  }
  Tensor out = Tensor::zeros(shape);
  copy_box(x, Shape(shape.size(), 0), out, before, x.shape());
  if (autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, before](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{slice(g, before, in_shape)};  // the adjoint of padding
    }, {.name = "pad", .differentiable_backward = true});
  }
  return out;
}

Tensor concatenate(const std::vector<Tensor>& xs0, int axis_in) {
  if (xs0.empty()) throw ValueError("concatenate needs at least one tensor");
  std::vector<Tensor> xs;
  for (const auto& x : xs0) xs.push_back(float_input(x, "concatenate"));
  const int rank = xs[0].ndim();
  const int axis = normalize_axis(axis_in, rank, "concatenate");
  Shape shape = xs[0].shape();
  shape[axis] = 0;
  for (const auto& x : xs) {
    bool ok = x.ndim() == rank;
    for (int a = 0; ok && a < rank; ++a) ok = a == axis || x.shape()[a] == xs[0].shape()[a];
    if (!ok)
      throw ValueError(fmt::format("concatenate: shapes {} and {} differ outside the concatenation axis {}",
                                   shape_str(xs[0].shape()), shape_str(x.shape()), axis));
    shape[axis] += x.shape()[axis];
  }
  Tensor out = Tensor::empty(shape);
  std::vector<std::int64_t> offsets;
  for (std::int64_t at = 0; const auto& x : xs) {
    offsets.push_back(at);
    at += x.shape()[axis];
  }
  auto compute = [](const std::vector<Tensor>& xs, const Tensor& out, const std::vector<std::int64_t>& offsets,
                    int axis) {
    const auto rank = static_cast<std::size_t>(out.ndim());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      Shape at(rank, 0);
      at[static_cast<std::size_t>(axis)] = offsets[i];
      copy_box(xs[i], Shape(rank, 0), out, at, xs[i].shape());
    }
  };
  compute(xs, out, offsets, axis);
  if (jit::tracing()) jit::capture("concatenate", xs, {out}, [=] { compute(xs, out, offsets, axis); });
  if (autodiff::recording()) {
    std::vector<Shape> shapes;
    for (const auto& x : xs) shapes.push_back(x.shape());
    autodiff::record(out, xs, [shapes, offsets, axis](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(shapes.size());
      for (std::size_t i = 0; i < shapes.size(); ++i) {
        if (!needs[i]) continue;
        Shape begin(shapes[i].size(), 0);
        begin[axis] = offsets[i];
        grads[i] = slice(g, begin, shapes[i]);
      }
      return grads;
    }, {.name = "concatenate", .differentiable_backward = true});
  }
  return out;
}

Tensor transpose(const Tensor& x0, const std::vector<int>& perm_in) {
  Tensor x = float_input(x0, "transpose");
  const int rank = x.ndim();
  std::vector<int> perm;
  std::vector<bool> used(rank, false);
  if (static_cast<int>(perm_in.size()) != rank)
    throw ValueError(fmt::format("transpose: the permutation has {} entries for a tensor of shape {}", perm_in.size(),
                                 shape_str(x.shape())));
  for (int p : perm_in) {
    const int a = normalize_axis(p, rank, "transpose");
    if (used[a]) throw ValueError(fmt::format("transpose: axis {} appears twice in the permutation", a));
    used[a] = true;
    perm.push_back(a);
  }
  Shape shape(rank);
  for (int i = 0; i < rank; ++i) shape[i] = x.shape()[perm[i]];
  Tensor out = Tensor::empty(shape);
  const Shape in_strides = strides_of(x.shape());
  Shape src_strides(rank);  // input stride of each output axis
  for (int i = 0; i < rank; ++i) src_strides[i] = in_strides[perm[i]];
  // Each thread walks its share of the output's rows (last axis) with a counter over the other axes (no
  // division per row); a row whose input elements are consecutive (the last axis stays last, as in the
  // attention's [batch, T, heads, depth] <-> [batch, heads, T, depth]) is one block copy.
  auto compute = [rank, shape, src_strides](const Tensor& x, Tensor out) {
    const float* px = x.data<float>();
    float* po = out.data<float>();
    const std::int64_t row = rank ? shape.back() : 1;
    if (row == 0 || out.size() == 0) return;
    const std::int64_t last_stride = rank ? src_strides.back() : 1;
    kernels::parallel_ranges(out.size(), [&](std::int64_t begin, std::int64_t end) {
      const std::int64_t r0 = (begin + row - 1) / row, r1 = (end + row - 1) / row;  // rows [r0, r1) are ours
      if (r0 >= r1) return;
      std::vector<std::int64_t> at(static_cast<std::size_t>(std::max(rank - 1, 0)));  // row r's index, outer axes
      std::int64_t so = 0;
      for (std::int64_t a = rank - 2, rest = r0; a >= 0; --a) {
        at[a] = rest % shape[a];
        so += at[a] * src_strides[a];
        rest /= shape[a];
      }
      for (std::int64_t r = r0; r < r1; ++r) {
        float* dst = po + r * row;
        if (last_stride == 1) std::copy(px + so, px + so + row, dst);
        else
          for (std::int64_t j = 0; j < row; ++j) dst[j] = px[so + j * last_stride];
        for (std::int64_t a = rank - 2; a >= 0; --a) {  // the next row
          so += src_strides[a];
          if (++at[a] < shape[a]) break;
          so -= shape[a] * src_strides[a];
          at[a] = 0;
        }
      }
    });
  };
  compute(x, out);
  if (jit::tracing()) jit::capture("transpose", {x}, {out}, [=] { compute(x, out); });
  if (autodiff::recording()) {
    std::vector<int> inverse(rank);
    for (int i = 0; i < rank; ++i) inverse[perm[i]] = i;
    autodiff::record(out, {x}, [inverse](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{transpose(g, inverse)};
    }, {.name = "transpose", .differentiable_backward = true});
  }
  return out;
}

Tensor repeat(const Tensor& x0, std::int64_t repeats, int axis_in) {
  Tensor x = float_input(x0, "repeat");
  if (repeats < 1) throw ValueError(fmt::format("repeat: repeats must be >= 1, got {}", repeats));
  const int axis = normalize_axis(axis_in, x.ndim(), "repeat");
  const Shape& s = x.shape();
  std::int64_t outer = 1, inner = 1;
  for (int a = 0; a < axis; ++a) outer *= s[a];
  for (int a = axis + 1; a < x.ndim(); ++a) inner *= s[a];
  const std::int64_t d = s[axis];
  Shape shape = s;
  shape[axis] *= repeats;
  Tensor out = Tensor::empty(shape);
  const float* px = x.data<float>();
  float* po = out.data<float>();
  kernels::parallel_rows(outer * d, inner * repeats, [&](std::int64_t r) {
    const float* src = px + r * inner;
    float* dst = po + r * inner * repeats;
    for (std::int64_t k = 0; k < repeats; ++k) std::memcpy(dst + k * inner, src, inner * sizeof(float));
  });
  if (autodiff::recording()) {
    autodiff::record(out, {x}, [s, outer, d, repeats, inner](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{reshape(sum(reshape(g, {outer, d, repeats, inner}), {2}), s)};
    }, {.name = "repeat", .differentiable_backward = true});
  }
  return out;
}

Tensor expand_dims(const Tensor& x, int axis) {
  const int rank = x.ndim() + 1;
  const int a = normalize_axis(axis, rank, "expand_dims");
  Shape shape = x.shape();
  shape.insert(shape.begin() + a, 1);
  return reshape(x, shape);
}

}  // namespace keras::ops
