#pragma once
// Keras's data_format for spatial layers. kernelscpp's kernels run channels_last (N, d1..dk, C); a layer
// configured channels_first (N, C, d1..dk) transposes its input to channels_last at its entry and its
// output back at its exit, so its weights have Keras's layout in either format.
#include <string>

#include "keras/tensor.hpp"

namespace keras::layers {

/// True for "channels_first", false for "channels_last" (or an empty string); a ValueError naming
/// `owner` for anything else.
bool is_channels_first(const std::string& data_format, const std::string& owner);

/// (N, C, d1..dk) → (N, d1..dk, C) and back, for tensors and shapes of rank 3 or more (others unchanged).
Tensor to_channels_last(const Tensor& x);
Tensor to_channels_first(const Tensor& x);
Shape to_channels_last(const Shape& s);
Shape to_channels_first(const Shape& s);

}  // namespace keras::layers
