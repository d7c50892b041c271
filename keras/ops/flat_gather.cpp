#include "keras/ops/flat_gather.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/dtype_dispatch.hpp"

namespace keras::ops::detail {

Shape strides_of(const Shape& s) {
  Shape st(s.size(), 1);
  for (int i = static_cast<int>(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
  return st;
}

Tensor gather_flat(const Tensor& x, FlatIndex index, const Shape& shape) {
  Tensor out = Tensor::empty(shape, x.dtype());
  const auto n = static_cast<std::int64_t>(index->size());
  const std::int64_t* idx = index->data();
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.data<T>();
    T* po = out.data<T>();
    kernels::parallel_for(n, [&](std::int64_t i) { po[i] = px[idx[i]]; });
  });
  if (is_float(x.dtype()) && autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [index, in_shape](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{scatter_add_flat(g, index, in_shape)};
    });
  }
  return out;
}

Tensor scatter_add_flat(const Tensor& v, FlatIndex index, const Shape& shape) {
  Tensor out = Tensor::zeros(shape, v.dtype());
  const auto n = static_cast<std::int64_t>(index->size());
  const std::int64_t* idx = index->data();
  visit_dtype(v.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pv = v.data<T>();
    T* po = out.data<T>();
    for (std::int64_t i = 0; i < n; ++i) po[idx[i]] += pv[i];  // serial: offsets may repeat
  });
  if (is_float(v.dtype()) && autodiff::recording()) {
    Shape in_shape = v.shape();
    autodiff::record(out, {v}, [index, in_shape](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{gather_flat(g, index, in_shape)};
    });
  }
  return out;
}

Tensor assemble_flat(const std::vector<Tensor>& xs, std::vector<FlatIndex> where, const Shape& shape) {
  const DType dtype = xs.at(0).dtype();
  Tensor out = Tensor::empty(shape, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* po = out.data<T>();
    for (std::size_t k = 0; k < xs.size(); ++k) {
      const T* px = xs[k].data<T>();
      const std::int64_t* idx = where[k]->data();
      kernels::parallel_for(static_cast<std::int64_t>(where[k]->size()), [&](std::int64_t i) { po[idx[i]] = px[i]; });
    }
  });
  if (is_float(dtype) && autodiff::recording()) {
    std::vector<Shape> shapes;
    for (const auto& x : xs) shapes.push_back(x.shape());
    autodiff::record(out, xs, [where, shapes](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(shapes.size());
      for (std::size_t k = 0; k < shapes.size(); ++k)
        if (needs[k]) grads[k] = gather_flat(g, where[k], shapes[k]);
      return grads;
    });
  }
  return out;
}

}  // namespace keras::ops::detail
