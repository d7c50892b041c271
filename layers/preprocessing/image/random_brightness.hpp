#pragma once
// RandomBrightness: in training, adds to each image one delta drawn from factor's range (f stands for
// [-f, f], within [-1, 1]) times the width of value_range, then clips to value_range.
#include <array>

#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomBrightnessOptions {
  std::array<double, 2> value_range{0.0, 255.0};
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class RandomBrightness : public AugmentationLayer {
 public:
  explicit RandomBrightness(Factor factor, RandomBrightnessOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  Factor factor_;
  RandomBrightnessOptions options_;

  KERAS_LAYER(RandomBrightness)
};

}  // namespace keras::layers
