#pragma once
// RandomFlip: in training, flips each image left-right ("horizontal"), up-down ("vertical") or each of
// the two independently ("horizontal_and_vertical", the default), each with probability 1/2.
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomFlipOptions {
  std::string mode = "horizontal_and_vertical";
  std::optional<std::uint64_t> seed{};
  KERAS_LAYER_OPTIONS
};

class RandomFlip : public AugmentationLayer {
 public:
  explicit RandomFlip(RandomFlipOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  RandomFlipOptions options_;

  KERAS_LAYER(RandomFlip)
};

}  // namespace keras::layers
