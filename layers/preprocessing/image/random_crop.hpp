#pragma once
// RandomCrop: in training, a random (height, width) window of each image; at inference, and in training
// for an image smaller than the window, the image cropped to the window's aspect ratio and resized
// bilinearly (tf.keras's smart_resize), so the output is always (height, width).
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomCropOptions {
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class RandomCrop : public AugmentationLayer {
 public:
  RandomCrop(std::int64_t height, std::int64_t width, RandomCropOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  std::int64_t height_, width_;
  RandomCropOptions options_;

  KERAS_LAYER(RandomCrop)
};

}  // namespace keras::layers
