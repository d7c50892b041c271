#include "keras/ops/logical.hpp"

#include <fmt/format.h>

#include "keras/ops/broadcast_loop.hpp"
#include "keras/ops/gather.hpp"

namespace keras::ops {
namespace {

// x as 0/1 bytes.
Tensor truth(const Tensor& x, const char* op) {
  if (!x.defined()) throw ValueError(fmt::format("{} received an undefined tensor", op));
  if (x.dtype() == detail::kBool) return x;
  Tensor out = Tensor::empty(x.shape(), detail::kBool);
  detail::visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<T>();
    detail::BoolT* po = out.data<detail::BoolT>();
    kernels::parallel_for(x.size(), [&](std::int64_t i) { po[i] = p[i] != T{0}; });
  });
  return out;
}

template <class F>
Tensor logical(const Tensor& a, const Tensor& b, const char* op, F f) {
  return detail::binary_loop_as<detail::BoolT>(truth(a, op), truth(b, op), detail::kBool, op,
                                               [f](auto x, auto y) { return detail::BoolT(f(x != 0, y != 0)); });
}

// Reduces the 0/1 bytes of x over `axes`: `any_true` says whether one true makes the result true.
Tensor reduce_truth(const Tensor& x0, std::vector<int> axes, bool keepdims, bool any_true, const char* op) {
  const Tensor x = truth(x0, op);
  const int rank = x.ndim();
  std::vector<bool> reduced(static_cast<std::size_t>(rank), axes.empty());
  for (int a : axes) reduced[static_cast<std::size_t>(detail::normalize_axis(a, rank, op))] = true;
  Shape out_shape, kept;
  Shape out_stride(static_cast<std::size_t>(rank), 0);
  std::int64_t stride = 1;
  for (int d = rank; d-- > 0;)
    if (!reduced[static_cast<std::size_t>(d)]) {
      out_stride[static_cast<std::size_t>(d)] = stride;
      stride *= x.dim(d);
    }
  for (int d = 0; d < rank; ++d) {
    if (!reduced[static_cast<std::size_t>(d)]) out_shape.push_back(x.dim(d));
    kept.push_back(reduced[static_cast<std::size_t>(d)] ? 1 : x.dim(d));
  }
  Tensor out = Tensor::full(keepdims ? kept : out_shape, any_true ? 0.0 : 1.0, detail::kBool);
  const detail::BoolT* p = x.data<detail::BoolT>();
  detail::BoolT* po = out.data<detail::BoolT>();
  std::vector<std::int64_t> pos(static_cast<std::size_t>(rank), 0);
  std::int64_t o = 0;
  for (std::int64_t i = 0; i < x.size(); ++i) {
    if ((p[i] != 0) == any_true) po[o] = any_true;
    for (int d = rank; d-- > 0;) {
      o += out_stride[static_cast<std::size_t>(d)];
      if (++pos[static_cast<std::size_t>(d)] < x.dim(d)) break;
      o -= out_stride[static_cast<std::size_t>(d)] * x.dim(d);
      pos[static_cast<std::size_t>(d)] = 0;
    }
  }
  return out;
}

}  // namespace

Tensor logical_and(const Tensor& a, const Tensor& b) { return logical(a, b, "logical_and", [](bool x, bool y) { return x && y; }); }
Tensor logical_or(const Tensor& a, const Tensor& b) { return logical(a, b, "logical_or", [](bool x, bool y) { return x || y; }); }
Tensor logical_xor(const Tensor& a, const Tensor& b) { return logical(a, b, "logical_xor", [](bool x, bool y) { return x != y; }); }
Tensor logical_not(const Tensor& x) {
  const Tensor t = truth(x, "logical_not");
  Tensor out = Tensor::empty(t.shape(), detail::kBool);
  const detail::BoolT* p = t.data<detail::BoolT>();
  detail::BoolT* po = out.data<detail::BoolT>();
  kernels::parallel_for(t.size(), [&](std::int64_t i) { po[i] = p[i] == 0; });
  return out;
}
Tensor any(const Tensor& x, std::vector<int> axes, bool keepdims) { return reduce_truth(x, std::move(axes), keepdims, true, "any"); }
Tensor all(const Tensor& x, std::vector<int> axes, bool keepdims) { return reduce_truth(x, std::move(axes), keepdims, false, "all"); }

}  // namespace keras::ops
