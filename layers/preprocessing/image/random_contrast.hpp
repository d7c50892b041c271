#pragma once
// RandomContrast: in training, scales each image's deviation from its per-channel mean by a draw from
// [1 - lower, 1 + upper] (factor f: [1 - f, 1 + f]), as tf.image.adjust_contrast, then clips to
// [0, 255] as tf.keras 2.x does (Keras 3's value_range argument is not offered).
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomContrastOptions {
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class RandomContrast : public AugmentationLayer {
 public:
  explicit RandomContrast(Factor factor, RandomContrastOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  Factor factor_;
  RandomContrastOptions options_;

  KERAS_LAYER(RandomContrast)
};

}  // namespace keras::layers
