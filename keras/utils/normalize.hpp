#pragma once
// keras::utils::normalize: divides an array by its vector norm along one axis, as keras.utils.normalize
// does for NumPy arrays (np.linalg.norm, zero norms replaced by 1).
#include <cmath>

#include "keras/tensor.hpp"

namespace keras::utils {

/// x / ||x||_order along axis (negative axes count from the end). order is p of the p-norm
/// (sum |x|^p)^(1/p); 0 counts the non-zero values, INFINITY takes max |x|, -INFINITY min |x|. A norm of 0
/// divides by 1, so zero vectors stay zero. The result is float32 (computed in double).
Tensor normalize(const Tensor& x, int axis = -1, double order = 2);

}  // namespace keras::utils
