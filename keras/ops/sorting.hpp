#pragma once
// keras.ops sort, argsort, top_k and argmin. Numeric dtypes; NaN sorts last, as NumPy. sort and top_k's values are
// differentiable (to any order) for float inputs: the gradient goes back to the positions the values came from.
#include <utility>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Index (int32, as Keras) of the first smallest value along `axis`. Not differentiable. (argmax in math.hpp
/// returns int64, kerascpp's older choice.)
Tensor argmin(const Tensor& x, int axis = -1);
/// Indices (int32) that sort x along `axis` ascending; equal values keep their order (stable).
Tensor argsort(const Tensor& x, int axis = -1);
/// x sorted ascending along `axis`.
Tensor sort(const Tensor& x, int axis = -1);
/// The k largest values along the last axis and their indices (int32); with `sorted`, largest first (ties:
/// the lower index first, as tf.math.top_k); otherwise in their order in x.
std::pair<Tensor, Tensor> top_k(const Tensor& x, std::int64_t k, bool sorted = true);

}  // namespace keras::ops
