#include "layers/preprocessing/image/random_rotation.hpp"

#include <numbers>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_transform.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomRotationOptions, fill_mode, interpolation, seed, fill_value)

RandomRotation::RandomRotation(Factor factor, RandomRotationOptions options)
    : AugmentationLayer(options, "random_rotation"), factor_(std::move(factor)), options_(std::move(options)) {
  check_factor(factor_, "factor", -1e30, 1e30);
  preprocessing::check_transform_options(options_.interpolation, options_.fill_mode, "RandomRotation");
}

Tensor RandomRotation::augment(const Tensor& images) {
  const auto& s = images.shape();
  std::vector<preprocessing::ProjectiveTransform> transforms;
  constexpr double turn = 2 * std::numbers::pi;
  for (std::int64_t b = 0; b < s[0]; ++b)
    transforms.push_back(
        preprocessing::rotation_transform(uniform(factor_.lower() * turn, factor_.upper() * turn), s[1], s[2]));
  return preprocessing::transform_images(
      images, transforms, {options_.interpolation, options_.fill_mode, static_cast<float>(options_.fill_value)});
}

json RandomRotation::get_config() const {
  json c = layer_config(*this, options_);
  c["factor"] = encode(factor_);
  return c;
}

std::shared_ptr<Layer> RandomRotation::from_config(const json& c) {
  Factor factor;
  decode(config::required<json>(c, "factor"), factor);
  return make_from_config<RandomRotation, RandomRotationOptions>(c, factor);
}

KERAS_REGISTER_LAYER(RandomRotation)

}  // namespace keras::layers
