#pragma once
// keras.ops where: elements of x1 where a condition holds, else of x2, broadcasting all three.
#include "keras/tensor.hpp"

namespace keras::ops {

/// condition ? x1 : x2 element-wise with NumPy broadcasting. The condition may be any dtype (non-zero is true).
/// x1 and x2 are promoted to a common dtype (keras's rules); the gradient goes to x1 where the condition holds
/// and to x2 elsewhere (differentiable to any order).
Tensor where(const Tensor& condition, const Tensor& x1, const Tensor& x2);

}  // namespace keras::ops
