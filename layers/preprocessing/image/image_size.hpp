#pragma once
// The target size that Resizing, CenterCrop and RandomCrop take: a check and the output shape it gives.
#include <cstdint>
#include <string>

#include "keras/tensor.hpp"

namespace keras::layers::preprocessing {

/// Throws a ValueError naming `layer` unless height and width are positive.
void check_target_size(std::int64_t height, std::int64_t width, const std::string& layer);
/// `input_shape` (rank 3 or 4, channels_last) with its height and width replaced.
Shape with_image_size(Shape input_shape, std::int64_t height, std::int64_t width);

}  // namespace keras::layers::preprocessing
