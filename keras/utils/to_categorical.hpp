#pragma once
// keras::utils::to_categorical: class indices to one-hot rows, as tf.keras.utils.to_categorical.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::utils {

/// One-hot encodes the integer class indices in y (any numeric dtype; floats are truncated, as NumPy's
/// cast to int64 does). The result has y's shape plus a last axis of num_classes (a last axis of size 1
/// is replaced, not kept); num_classes none or 0 means max(y) + 1. dtype is Keras's name of the output
/// type ("float32" by default). A negative index, or one >= num_classes, is a ValueError.
Tensor to_categorical(const Tensor& y, std::optional<std::int64_t> num_classes = {}, const std::string& dtype = "float32");
Tensor to_categorical(const std::vector<std::int64_t>& y, std::optional<std::int64_t> num_classes = {},
                      const std::string& dtype = "float32");

}  // namespace keras::utils
