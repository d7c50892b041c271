#pragma once
// RandomRotation: in training, rotates each image about its centre by an angle drawn from
// [lower, upper] * 2 pi, factor f standing for [-f, f] (a fraction of a full turn; positive is
// counter-clockwise). Points from outside the image are filled by fill_mode (image_transform.hpp).
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomRotationOptions {
  std::string fill_mode = "reflect";
  std::string interpolation = "bilinear";
  std::optional<std::uint64_t> seed{};
  double fill_value = 0.0;
  KERAS_LAYER_OPTIONS
};

class RandomRotation : public AugmentationLayer {
 public:
  explicit RandomRotation(Factor factor, RandomRotationOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  Factor factor_;
  RandomRotationOptions options_;

  KERAS_LAYER(RandomRotation)
};

}  // namespace keras::layers
