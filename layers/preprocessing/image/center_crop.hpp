#pragma once
// CenterCrop: the centred (height, width) window of each image; an image smaller than that on either side
// is instead cropped to the target aspect ratio and resized bilinearly (tf.keras's smart_resize). Output float32.
#include "keras/layer.hpp"

namespace keras::layers {

struct CenterCropOptions {
  KERAS_LAYER_OPTIONS
};

class CenterCrop : public Layer {
 public:
  CenterCrop(std::int64_t height, std::int64_t width, CenterCropOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t height_, width_;
  CenterCropOptions options_;

  KERAS_LAYER(CenterCrop)
};

}  // namespace keras::layers
