#pragma once
// What the per-step recurrent loops (RNN, ConvLSTM) share: Keras's dropout masks and masked updates.

#include "keras/ops/math.hpp"
#include "keras/tensor.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers::detail {

/// Keras's recurrent dropout mask: 0 or 1 / (1 - rate), drawn once per call, the same at every step.
inline Tensor dropout_mask(const Shape& shape, float rate) {
  Tensor m = Tensor::empty(shape);
  utils::fill_dropout_mask(m.data<float>(), m.size(), rate, utils::random_generator());
  return m;
}

/// where(m, a, b) for a 0/1 mask m that broadcasts against a and b (a step's new state or the old one).
inline Tensor select(const Tensor& m, const Tensor& a, const Tensor& b) {
  return ops::add(ops::multiply(m, a), ops::multiply(ops::subtract(Tensor::scalar(1.f), m), b));
}

}  // namespace keras::layers::detail
