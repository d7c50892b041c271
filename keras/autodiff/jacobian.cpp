#include "keras/autodiff/jacobian.hpp"

#include <algorithm>
#include <cstring>

#include "keras/ops/manipulation.hpp"
#include "keras/ops/shape.hpp"

namespace keras::autodiff {

namespace {

// (A non-persistent tape throws at its second backward pass, saying to make it persistent.)
void check(const Tensor& target, const Tensor& source, const char* what) {
  if (!target.defined() || !source.defined()) throw ValueError(std::string(what) + ": the target or the source is undefined");
  if (target.dtype() != DType::float32 || source.dtype() != DType::float32)
    throw ValueError(std::string(what) + ": only float32 tensors have gradients, got target " + target.str() +
                     " and source " + source.str());
}

}  // namespace

Tensor jacobian(GradientTape& tape, const Tensor& target, const Tensor& source) {
  check(target, source, "jacobian");
  Shape shape = target.shape();
  shape.insert(shape.end(), source.shape().begin(), source.shape().end());
  Tensor out = Tensor::zeros(shape);
  const std::int64_t n = target.size(), m = source.size();
  if (recording() && n > 0) {  // an outer tape records: the rows are joined with recorded ops
    std::vector<Tensor> rows;
    for (std::int64_t i = 0; i < n; ++i) {
      Tensor seed = Tensor::zeros(target.shape());
      seed.data<float>()[i] = 1.f;
      const Tensor g = tape.gradient(target, {source}, seed)[0];
      rows.push_back(g.defined() ? ops::reshape(g, {1, m}) : Tensor::zeros({1, m}));
    }
    return ops::reshape(ops::concatenate(rows, 0), shape);
  }
  for (std::int64_t i = 0; i < n; ++i) {
    Tensor seed = Tensor::zeros(target.shape());
    seed.data<float>()[i] = 1.f;
    const Tensor g = tape.gradient(target, {source}, seed)[0];
    if (g.defined()) {
      const Tensor row = g.astype(DType::float32);
      std::memcpy(out.data<float>() + i * m, row.data<float>(), sizeof(float) * static_cast<std::size_t>(m));
    }
  }
  return out;
}

Tensor batch_jacobian(GradientTape& tape, const Tensor& target, const Tensor& source) {
  check(target, source, "batch_jacobian");
  if (target.ndim() < 1 || source.ndim() < 1 || target.dim(0) != source.dim(0))
    throw ValueError("batch_jacobian: target " + shape_str(target.shape()) + " and source " +
                     shape_str(source.shape()) + " must share their first (batch) dimension");
  const std::int64_t batch = target.dim(0);
  const std::int64_t per_target = batch ? target.size() / batch : 0, per_source = batch ? source.size() / batch : 0;
  Shape shape = target.shape();
  shape.insert(shape.end(), source.shape().begin() + 1, source.shape().end());
  Tensor out = Tensor::zeros(shape);
  for (std::int64_t i = 0; i < per_target; ++i) {
    Tensor seed = Tensor::zeros(target.shape());  // element i of every sample at once
    for (std::int64_t b = 0; b < batch; ++b) seed.data<float>()[b * per_target + i] = 1.f;
    const Tensor g = tape.gradient(target, {source}, seed)[0];
    if (!g.defined()) continue;
    const Tensor rows = g.astype(DType::float32);
    for (std::int64_t b = 0; b < batch; ++b)
      std::memcpy(out.data<float>() + (b * per_target + i) * per_source, rows.data<float>() + b * per_source,
                  sizeof(float) * static_cast<std::size_t>(per_source));
  }
  return out;
}

}  // namespace keras::autodiff
