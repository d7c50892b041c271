#pragma once
// Image summaries (tf.summary.image, TensorBoard's Images tab): the PNG encoding and the tensor layout of
// TensorBoard's images plugin, and the TensorBoard callback's reshaping of a weight into images (write_images).
#include <cstdint>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::summary {

/// PNG bytes (stb_image_write) of one image of `height` rows of `width` pixels of `channels` (1 to 4) uint8s.
std::string encode_png(const std::uint8_t* pixels, int height, int width, int channels);

/// Images [k, h, w, c] as uint8, as tf.image.convert_image_dtype(images, tf.uint8, saturate=True) makes them:
/// a float is multiplied by 255.5 and clipped to [0, 255] (so [0, 1] covers the range); uint8 stays as it is.
Tensor image_to_uint8(const Tensor& images);

/// The string tensor of tf.summary.image: the width and the height as decimal strings, then the PNG of each of the
/// first `max_outputs` images (the layout TensorBoard's images plugin reads).
std::vector<std::string> image_summary_strings(const Tensor& images, int max_outputs);

/// A weight as tf.keras 2.x's TensorBoard(write_images=True) shows it: squeezed; a vector as one image of one
/// column; a matrix as one image, transposed when it has more rows than columns; a rank-3 weight (channels last)
/// as one image per last index; a rank-4 weight as is. Undefined when the result is not [k, h, w, c] with c in
/// {1, 3, 4} (Keras then writes no image).
Tensor weight_as_image(const Tensor& weight);

}  // namespace keras::summary
