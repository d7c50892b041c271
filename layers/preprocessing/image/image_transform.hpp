#pragma once
// Projective transforms of image batches as TensorFlow's ImageProjectiveTransformV3 does them (what
// tf.keras's RandomRotation, RandomZoom and RandomTranslation call): output pixel (x, y) reads input
// ((a0 x + a1 y + a2) / k, (a3 x + a4 y + a5) / k), k = a6 x + a7 y + 1; a coordinate outside the image is
// mapped by the fill mode ("reflect": d c b a | a b c d | d c b a, "wrap", "nearest": the edge, "constant":
// fill_value), then sampled "bilinear" or "nearest".
#include <array>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::layers::preprocessing {

using ProjectiveTransform = std::array<float, 8>;

struct TransformOptions {
  std::string interpolation = "bilinear";
  std::string fill_mode = "reflect";
  float fill_value = 0.f;
};

/// Throws a ValueError naming `layer` for an unknown interpolation or fill mode.
void check_transform_options(const std::string& interpolation, const std::string& fill_mode, const std::string& layer);

/// Applies transforms[b] to image b of a [n, h, w, c] float32 batch.
Tensor transform_images(const Tensor& images, const std::vector<ProjectiveTransform>& transforms,
                        const TransformOptions& options);

/// Rotation by `angle` radians (counter-clockwise) about the image centre, as tf.keras's get_rotation_matrix.
ProjectiveTransform rotation_transform(float angle, std::int64_t height, std::int64_t width);

}  // namespace keras::layers::preprocessing
