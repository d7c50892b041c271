#pragma once
// Logical ops of keras.ops (numpy.py): element-wise and/or/xor/not (broadcasting; any dtype, non-zero is
// true) and the any/all reductions, returning bool tensors. Not differentiable.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

Tensor logical_and(const Tensor& x1, const Tensor& x2);
Tensor logical_or(const Tensor& x1, const Tensor& x2);
Tensor logical_xor(const Tensor& x1, const Tensor& x2);
Tensor logical_not(const Tensor& x);
/// True where some element over `axes` (all axes when empty) is non-zero.
Tensor any(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
/// True where every element over `axes` (all axes when empty) is non-zero.
Tensor all(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);

}  // namespace keras::ops
