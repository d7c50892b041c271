#pragma once
// Reductions of keras.ops built from the differentiable ones (sum, mean, max), so their gradients come
// from those: min, var, std (population statistics, ddof 0, as keras.ops) and logsumexp.
#include <vector>

#include "keras/tensor.hpp"

namespace keras::ops {

/// The smallest value over `axes` (all axes when empty); the gradient goes to the minimum.
Tensor min(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
/// mean((x - mean(x))^2) over `axes`.
Tensor var(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
/// sqrt(var(x)).
Tensor std(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);
/// log(sum(exp(x))) over `axes`, computed as max + log(sum(exp(x - max))) so that large values do not overflow.
Tensor logsumexp(const Tensor& x, std::vector<int> axes = {}, bool keepdims = false);

}  // namespace keras::ops
