#pragma once
// Differentiable element-wise arithmetic and reductions (keras.ops). Binary ops broadcast as NumPy
// does; integer inputs are converted to float32. Each op records its backward on active tapes.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

Tensor add(const Tensor& a, const Tensor& b);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor divide(const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);

Tensor negative(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor square(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor pow(const Tensor& x, float exponent);
/// min(max(x, lo), hi); the gradient passes where lo <= x <= hi.
Tensor clip(const Tensor& x, float lo, float hi);
/// x with no gradient flowing back through it.
Tensor stop_gradient(const Tensor& x);

/// Sum over `axes` (all axes when empty); negative axes count from the end.
Tensor sum(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
Tensor mean(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
Tensor max(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);

// Not differentiable (no gradient flows through comparisons and indices).
/// Index of the largest value along `axis`, as int64.
Tensor argmax(const Tensor& x, int axis = -1);
/// a == b and a > b as bool tensors, broadcasting (the comparisons of keras/ops/comparison.hpp).
Tensor equal(const Tensor& a, const Tensor& b);
Tensor greater(const Tensor& a, const Tensor& b);
Tensor cast(const Tensor& x, DType dtype);

/// Sums `grad` down to `shape`, undoing broadcasting (used by backward functions).
Tensor reduce_to_shape(const Tensor& grad, const Shape& shape);

}  // namespace keras::ops

namespace keras {
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor operator+(const Tensor& a, float b);
Tensor operator-(const Tensor& a, float b);
Tensor operator*(const Tensor& a, float b);
Tensor operator/(const Tensor& a, float b);
Tensor operator+(float a, const Tensor& b);
Tensor operator-(float a, const Tensor& b);
Tensor operator*(float a, const Tensor& b);
Tensor operator/(float a, const Tensor& b);
}  // namespace keras
