#pragma once
// Comparisons of keras.ops (numpy.py): element-wise, broadcasting, on the inputs promoted to a common dtype
// (Keras's rules), returning bool tensors. Not differentiable. Also isnan / isinf / isfinite.
#include "keras/tensor.hpp"

namespace keras::ops {

Tensor equal(const Tensor& x1, const Tensor& x2);
Tensor not_equal(const Tensor& x1, const Tensor& x2);
Tensor less(const Tensor& x1, const Tensor& x2);
Tensor less_equal(const Tensor& x1, const Tensor& x2);
Tensor greater(const Tensor& x1, const Tensor& x2);
Tensor greater_equal(const Tensor& x1, const Tensor& x2);

/// True where x is NaN (never for integer dtypes).
Tensor isnan(const Tensor& x);
/// True where x is +inf or -inf (never for integer dtypes).
Tensor isinf(const Tensor& x);
/// True where x is neither NaN nor infinite (always for integer dtypes).
Tensor isfinite(const Tensor& x);

}  // namespace keras::ops
