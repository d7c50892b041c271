#pragma once
// keras::image: tf.image's augmentation helpers, for Dataset::map. Images are [height, width, channels]
// or batches [batch, height, width, channels], channels_last; random helpers act per image and are
// safe to call from parallel map workers.
#include <optional>
#include <string>

#include "keras/tensor.hpp"

namespace keras::image {

Tensor flip_left_right(const Tensor& image);
Tensor flip_up_down(const Tensor& image);
/// Each image flipped with probability 1/2.
Tensor random_flip_left_right(const Tensor& image, std::optional<std::uint64_t> seed = {});
Tensor random_flip_up_down(const Tensor& image, std::optional<std::uint64_t> seed = {});
/// Adds one delta in [-max_delta, max_delta) per image (float images).
Tensor random_brightness(const Tensor& image, float max_delta, std::optional<std::uint64_t> seed = {});
/// A random window of `size` (same rank as value) from value.
Tensor random_crop(const Tensor& value, const Shape& size, std::optional<std::uint64_t> seed = {});
/// Rotates by k * 90 degrees counter-clockwise.
Tensor rot90(const Tensor& image, int k = 1);
/// uint8 [0, 255] <-> float32 [0, 1], as tf.image.convert_image_dtype (saturating on the way back).
Tensor convert_image_dtype(const Tensor& image, DType dtype);
/// Resizes height and width to size = {h, w}; "bilinear" (float32 out) or "nearest" (dtype kept),
/// with tf 2's half-pixel centers.
Tensor resize(const Tensor& images, const Shape& size, const std::string& method = "bilinear");

/// Decodes PNG, JPEG, BMP or GIF (its first frame) bytes into a uint8 [height, width, channels] image,
/// as tf.io.decode_image(expand_animations=False). channels 0 keeps the file's; 1, 3 or 4 converts.
/// `what` names the source (a file name) in the keras::ValueError for bytes that are not an image.
Tensor decode_image(const std::string& contents, int channels = 0, const std::string& what = "image bytes");
/// Reads and decodes an image file (decode_image); a missing file is a keras::IOError naming it.
Tensor load_image(const std::string& path, int channels = 0);

}  // namespace keras::image
