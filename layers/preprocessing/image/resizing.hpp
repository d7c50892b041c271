#pragma once
// Resizing: resizes images to (height, width) as tf.image.resize (half-pixel centres, no antialias), with
// interpolation "bilinear" (default), "nearest", "bicubic" or "area"; crop_to_aspect_ratio first crops
// the largest centred window of the target aspect ratio so the image is not distorted. Output float32.
#include "keras/layer.hpp"

namespace keras::layers {

struct ResizingOptions {
  std::string interpolation = "bilinear";
  bool crop_to_aspect_ratio = false;
  KERAS_LAYER_OPTIONS
};

class Resizing : public Layer {
 public:
  Resizing(std::int64_t height, std::int64_t width, ResizingOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t height_, width_;
  ResizingOptions options_;

  KERAS_LAYER(Resizing)
};

}  // namespace keras::layers
