#pragma once
// More element-wise functions of keras.ops (numpy.py): trigonometric and hyperbolic functions, rounding,
// sign, log1p/expm1, rsqrt, erf. Each is differentiable where the maths is (rounding and sign pass a zero
// gradient, as in Keras's backends); integer inputs are converted to float32.
#include "keras/tensor.hpp"

namespace keras::ops {

Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);
Tensor tan(const Tensor& x);
/// Inverse functions: NaN outside their domain, as NumPy.
Tensor arcsin(const Tensor& x);
Tensor arccos(const Tensor& x);
Tensor arctan(const Tensor& x);
Tensor sinh(const Tensor& x);
Tensor cosh(const Tensor& x);
Tensor arcsinh(const Tensor& x);
Tensor arctanh(const Tensor& x);
/// -1, 0 or 1 (0 at 0); zero gradient.
Tensor sign(const Tensor& x);
Tensor floor(const Tensor& x);
Tensor ceil(const Tensor& x);
/// Rounds halves to the nearest even integer, as NumPy and Keras (round(2.5) = 2); zero gradient.
Tensor round(const Tensor& x);
/// log(1 + x), accurate for small x.
Tensor log1p(const Tensor& x);
/// exp(x) - 1, accurate for small x.
Tensor expm1(const Tensor& x);
/// 1 / sqrt(x).
Tensor rsqrt(const Tensor& x);
/// The Gauss error function.
Tensor erf(const Tensor& x);

}  // namespace keras::ops
