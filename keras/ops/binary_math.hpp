#pragma once
// Binary functions of keras.ops (numpy.py) beyond arithmetic: power with a tensor exponent, mod and
// floor_divide with Python's signs. They broadcast, keep integer dtypes (Keras's promotion), and are
// differentiable (to any order) for floats.
#include "keras/tensor.hpp"

namespace keras::ops {

/// x1 ** x2 element-wise. The gradient with respect to x2 is out * log(x1), taken as 0 where x1 == 0
/// (as PyTorch); negative bases give NaN there.
Tensor power(const Tensor& x1, const Tensor& x2);
/// power(x1, x2) (keras::ops::pow(x, float) takes a constant exponent).
Tensor pow(const Tensor& x1, const Tensor& x2);
/// The remainder of x1 / x2 with the sign of x2 (Python's %, NumPy's mod); an integer x2 of 0 gives 0.
Tensor mod(const Tensor& x1, const Tensor& x2);
/// floor(x1 / x2) (Python's //); integers stay integers (division by 0 gives 0). Not differentiable (zero gradient).
Tensor floor_divide(const Tensor& x1, const Tensor& x2);

}  // namespace keras::ops
