#include "keras/ops/norm.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/ops/composite_reductions.hpp"
#include "keras/ops/decompositions.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/shape.hpp"

namespace keras::ops {
namespace {

std::string ord_str(const NormOrd& o) {
  return o.number ? fmt::format("{}", *o.number) : (o.name.empty() ? "None" : "\"" + o.name + "\"");
}

Tensor vector_norm(const Tensor& x, const NormOrd& ord, int axis, bool keepdims) {
  const std::vector<int> axes{axis};
  if (!ord.name.empty())
    throw ValueError(fmt::format("norm: ord {} is a matrix norm; a vector norm (one axis) takes a number", ord_str(ord)));
  const double p = ord.number.value_or(2.0);
  if (p == 2.0) return sqrt(sum(square(x), axes, keepdims));
  if (p == inf) return max(abs(x), axes, keepdims);
  if (p == -inf) return min(abs(x), axes, keepdims);
  if (p == 0.0) return sum(cast(greater(abs(x), Tensor::scalar(0.f)), DType::float32), axes, keepdims);
  if (p == 1.0) return sum(abs(x), axes, keepdims);
  return pow(sum(pow(abs(x), static_cast<float>(p)), axes, keepdims), static_cast<float>(1.0 / p));
}

// A matrix norm over axes (r, c) (normalized, distinct).
Tensor matrix_norm(const Tensor& x, const NormOrd& ord, int r, int c, bool keepdims) {
  auto keep = [&](const Tensor& t) {  // re-inserts the reduced axes when keepdims
    if (!keepdims) return t;
    Shape s = x.shape();
    s[static_cast<std::size_t>(r)] = 1;
    s[static_cast<std::size_t>(c)] = 1;
    return reshape(t, s);
  };
  if (ord.is_none() || ord.name == "fro") return sqrt(sum(square(x), {r, c}, keepdims));
  if (ord.name == "nuc" || (ord.number && std::abs(*ord.number) == 2.0)) {
    // Singular values of the planes (r, c) moved last; not differentiable.
    std::vector<int> perm;
    for (int d = 0; d < x.ndim(); ++d)
      if (d != r && d != c) perm.push_back(d);
    perm.push_back(r);
    perm.push_back(c);
    const Tensor s = svd(permute_axes(x, perm), false, false).s;
    if (ord.name == "nuc") return keep(sum(s, {-1}));
    return keep(*ord.number > 0 ? max(s, {-1}) : min(s, {-1}));
  }
  if (!ord.name.empty()) throw ValueError(fmt::format("norm: unknown ord {}; use \"fro\" or \"nuc\"", ord_str(ord)));
  const double p = *ord.number;
  // 1 / -1: largest / smallest column sum (sum over rows); inf / -inf: largest / smallest row sum.
  const bool columns = p == 1.0 || p == -1.0;
  if (!columns && std::abs(p) != inf)
    throw ValueError(fmt::format("norm: ord {} is not a matrix norm; use None, \"fro\", \"nuc\", 1, -1, 2, -2, inf "
                                 "or -inf", ord_str(ord)));
  const int summed = columns ? r : c, other = columns ? c : r;
  const Tensor sums = sum(abs(x), {summed}, true);
  const Tensor picked = p > 0 ? max(sums, {other}, true) : min(sums, {other}, true);
  if (keepdims) return picked;
  Shape s;
  for (int d = 0; d < x.ndim(); ++d)
    if (d != r && d != c) s.push_back(x.dim(d));
  return reshape(picked, s);
}

}  // namespace

Tensor norm(const Tensor& x0, NormOrd ord, std::vector<int> axes, bool keepdims) {
  if (!x0.defined()) throw ValueError("norm received an undefined tensor");
  const Tensor x = x0.dtype() == DType::float32 ? x0 : cast(x0, DType::float32);
  if (axes.empty()) {
    if (ord.is_none()) {
      const Tensor flat = sqrt(sum(square(x)));
      return keepdims ? reshape(flat, Shape(static_cast<std::size_t>(x.ndim()), 1)) : flat;
    }
    if (x.ndim() == 1) axes = {0};
    else if (x.ndim() == 2) axes = {0, 1};
    else
      throw ValueError(fmt::format("norm: ord {} without axes needs a vector or a matrix, got shape {}; pass the axes",
                                   ord_str(ord), shape_str(x.shape())));
  }
  if (axes.size() == 1) return vector_norm(x, ord, detail::normalize_axis(axes[0], x.ndim(), "norm"), keepdims);
  if (axes.size() == 2) {
    const int r = detail::normalize_axis(axes[0], x.ndim(), "norm"), c = detail::normalize_axis(axes[1], x.ndim(), "norm");
    if (r == c) throw ValueError("norm: the two axes of a matrix norm are the same axis");
    return matrix_norm(x, ord, r, c, keepdims);
  }
  throw ValueError(fmt::format("norm: {} axes given; a norm is over one axis (vector) or two (matrix)", axes.size()));
}

}  // namespace keras::ops
