#pragma once
// RandomTranslation: in training, shifts each image by a draw from height_factor's range times its height
// (down for positive) and from width_factor's range times its width (right for positive); f stands for
// [-f, f]. Points from outside the image are filled by fill_mode (image_transform.hpp).
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomTranslationOptions {
  std::string fill_mode = "reflect";
  std::string interpolation = "bilinear";
  std::optional<std::uint64_t> seed{};
  double fill_value = 0.0;
  KERAS_LAYER_OPTIONS
};

class RandomTranslation : public AugmentationLayer {
 public:
  RandomTranslation(Factor height_factor, Factor width_factor, RandomTranslationOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  Factor height_factor_, width_factor_;
  RandomTranslationOptions options_;

  KERAS_LAYER(RandomTranslation)
};

}  // namespace keras::layers
