#pragma once
// Arithmetic and indexing on symbolic tensors, as in tf.keras: `a + b`, `x * 2.f`, `1.f - x`, `-x`,
// `getitem(x, {Slice{}, 0})` (Python's `x[:, 0]`) each record a TFOpLambda / SlicingOpLambda node named as
// tf.keras names it ("tf.__operators__.add", "tf.math.multiply_1", "tf.__operators__.getitem"), so a
// functional model written with them saves and loads like one written in Python with tf.keras 2.x.
#include <vector>

#include "keras/keras_tensor.hpp"
#include "keras/ops/indexing.hpp"

namespace keras {

KerasTensor operator+(const KerasTensor& a, const KerasTensor& b);
KerasTensor operator-(const KerasTensor& a, const KerasTensor& b);
KerasTensor operator*(const KerasTensor& a, const KerasTensor& b);
KerasTensor operator/(const KerasTensor& a, const KerasTensor& b);
KerasTensor operator+(const KerasTensor& a, float b);
KerasTensor operator-(const KerasTensor& a, float b);
KerasTensor operator*(const KerasTensor& a, float b);
KerasTensor operator/(const KerasTensor& a, float b);
KerasTensor operator+(float a, const KerasTensor& b);
KerasTensor operator-(float a, const KerasTensor& b);
KerasTensor operator*(float a, const KerasTensor& b);
KerasTensor operator/(float a, const KerasTensor& b);
KerasTensor operator-(const KerasTensor& a);

/// x[key]: `getitem(x, {Slice{}, 0})` is `x[:, 0]`, `getitem(x, {ellipsis, newaxis})` is `x[..., None]`,
/// `getitem(x, {Slice{.start = 1, .step = 2}})` is `x[1::2]`.
KerasTensor getitem(const KerasTensor& x, const std::vector<Index>& key);

}  // namespace keras
