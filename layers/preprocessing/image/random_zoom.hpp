#pragma once
// RandomZoom: in training, zooms each image about its centre: the vertical scale is 1 + a draw from
// height_factor's range (f stands for [-f, f]; positive zooms out, negative in), the horizontal one
// 1 + a draw from width_factor's, or the vertical one when width_factor is not given (aspect kept).
#include "layers/preprocessing/image/augmentation_layer.hpp"

namespace keras::layers {

struct RandomZoomOptions {
  std::optional<Factor> width_factor{};
  std::string fill_mode = "reflect";
  std::string interpolation = "bilinear";
  std::optional<std::uint64_t> seed{};
  double fill_value = 0.0;
  KERAS_LAYER_OPTIONS
};

class RandomZoom : public AugmentationLayer {
 public:
  explicit RandomZoom(Factor height_factor, RandomZoomOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor augment(const Tensor& images) override;

 private:
  Factor height_factor_;
  RandomZoomOptions options_;

  KERAS_LAYER(RandomZoom)
};

}  // namespace keras::layers
