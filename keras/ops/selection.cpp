#include "keras/ops/selection.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/broadcasting.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {

Tensor where(const Tensor& condition, const Tensor& x10, const Tensor& x20) {
  if (!condition.defined() || !x10.defined() || !x20.defined()) throw ValueError("where received an undefined tensor");
  const DType dt = detail::result_dtype(x10.dtype(), x20.dtype());
  const Tensor x1 = x10.dtype() == dt ? x10 : cast(x10, dt), x2 = x20.dtype() == dt ? x20 : cast(x20, dt);
  const Shape shape = broadcast_shapes(broadcast_shapes(condition.shape(), x1.shape(), "where"), x2.shape(), "where");
  // The condition as bools over the output shape (no gradient flows into it).
  const Tensor c = broadcast_to(condition, shape);
  Tensor mask = Tensor::empty(shape, detail::kBool);
  detail::visit_dtype(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* pc = c.data<T>();
    detail::BoolT* pm = mask.data<detail::BoolT>();
    kernels::parallel_for(c.size(), [&](std::int64_t i) { pm[i] = pc[i] != T{0}; });
  });
  Tensor out;
  {
    autodiff::NoGradScope no_grad;  // the broadcast copies below are not part of the recorded op
    const Tensor b1 = broadcast_to(x1, shape), b2 = broadcast_to(x2, shape);
    out = Tensor::empty(shape, dt);
    detail::visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      const T* p1 = b1.data<T>();
      const T* p2 = b2.data<T>();
      const detail::BoolT* pm = mask.data<detail::BoolT>();
      T* po = out.data<T>();
      kernels::parallel_for(out.size(), [&](std::int64_t i) { po[i] = pm[i] ? p1[i] : p2[i]; });
    });
  }
  if (detail::is_float(dt) && autodiff::recording()) {
    const Shape s1 = x1.shape(), s2 = x2.shape();
    autodiff::record(out, {x1, x2}, [mask, s1, s2](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(2);
      const Tensor zero = Tensor::zeros({}, g.dtype());
      if (needs[0]) grads[0] = reduce_to_shape(where(mask, g, zero), s1);
      if (needs[1]) grads[1] = reduce_to_shape(where(mask, zero, g), s2);
      return grads;
    });
  }
  return out;
}

}  // namespace keras::ops
