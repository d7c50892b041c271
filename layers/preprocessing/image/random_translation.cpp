#include "layers/preprocessing/image/random_translation.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_transform.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomTranslationOptions, fill_mode, interpolation, seed, fill_value)

RandomTranslation::RandomTranslation(Factor height_factor, Factor width_factor, RandomTranslationOptions options)
    : AugmentationLayer(options, "random_translation"),
      height_factor_(std::move(height_factor)),
      width_factor_(std::move(width_factor)),
      options_(std::move(options)) {
  check_factor(height_factor_, "height_factor", -1, 1);
  check_factor(width_factor_, "width_factor", -1, 1);
  preprocessing::check_transform_options(options_.interpolation, options_.fill_mode, "RandomTranslation");
}

Tensor RandomTranslation::augment(const Tensor& images) {
  const auto& s = images.shape();
  std::vector<preprocessing::ProjectiveTransform> transforms;
  for (std::int64_t b = 0; b < s[0]; ++b) {
    const float dy = uniform(height_factor_.lower(), height_factor_.upper()) * float(s[1]);
    const float dx = uniform(width_factor_.lower(), width_factor_.upper()) * float(s[2]);
    transforms.push_back({1.f, 0.f, -dx, 0.f, 1.f, -dy, 0.f, 0.f});
  }
  return preprocessing::transform_images(
      images, transforms, {options_.interpolation, options_.fill_mode, static_cast<float>(options_.fill_value)});
}

json RandomTranslation::get_config() const {
  json c = layer_config(*this, options_);
  c["height_factor"] = encode(height_factor_);
  c["width_factor"] = encode(width_factor_);
  return c;
}

std::shared_ptr<Layer> RandomTranslation::from_config(const json& c) {
  Factor height, width;
  decode(config::required<json>(c, "height_factor"), height);
  decode(config::required<json>(c, "width_factor"), width);
  return make_from_config<RandomTranslation, RandomTranslationOptions>(c, height, width);
}

KERAS_REGISTER_LAYER(RandomTranslation)

}  // namespace keras::layers
