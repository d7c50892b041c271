#pragma once
// The image preprocessing layers' view of their input: [batch, height, width, channels] float32
// (channels_last), made from a batch or from one [height, width, channels] image, and the geometric
// helpers they share: a window crop, a resize by Keras's interpolations, and smart_resize (crop the
// largest centred window of the target aspect ratio, then resize), as tf.keras's image_utils does.
#include <cstdint>
#include <string>

#include "keras/tensor.hpp"

namespace keras::layers::preprocessing {

struct ImageBatch {
  Tensor images;  // [n, h, w, c] float32, contiguous
  bool batched = true;
  std::int64_t n = 0, h = 0, w = 0, c = 0;

  /// The input as a float32 batch; rank other than 3 or 4 is a ValueError naming `layer`.
  static ImageBatch of(const Tensor& inputs, const std::string& layer);
  /// A result [n, h', w', c] back in the input's rank (the batch axis dropped for a single image).
  Tensor restore(const Tensor& result) const;
};

/// images[:, top:top+h, left:left+w, :].
Tensor crop_images(const Tensor& images, std::int64_t top, std::int64_t left, std::int64_t height, std::int64_t width);
/// Resizes [n, h, w, c] float32 to (height, width) with tf.image.resize's half-pixel centres:
/// "bilinear", "nearest", "bicubic" (Keys, a = -0.5) or "area". Anything else is a ValueError naming `layer`.
Tensor resize_images(const Tensor& images, std::int64_t height, std::int64_t width, const std::string& interpolation,
                     const std::string& layer);
/// Crops the largest centred window with the aspect ratio height:width, then resizes to it.
Tensor smart_resize(const Tensor& images, std::int64_t height, std::int64_t width, const std::string& interpolation,
                    const std::string& layer);
/// Throws a ValueError naming `layer` unless `interpolation` is one resize_images knows.
void check_resize_interpolation(const std::string& interpolation, const std::string& layer);

}  // namespace keras::layers::preprocessing
