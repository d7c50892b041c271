#include "layers/preprocessing/image/random_zoom.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/image/image_transform.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomZoomOptions, width_factor, fill_mode, interpolation, seed, fill_value)

RandomZoom::RandomZoom(Factor height_factor, RandomZoomOptions options)
    : AugmentationLayer(options, "random_zoom"), height_factor_(std::move(height_factor)), options_(std::move(options)) {
  check_factor(height_factor_, "height_factor", -1, 1);
  if (options_.width_factor) check_factor(*options_.width_factor, "width_factor", -1, 1);
  preprocessing::check_transform_options(options_.interpolation, options_.fill_mode, "RandomZoom");
}

Tensor RandomZoom::augment(const Tensor& images) {
  const auto& s = images.shape();
  const float hd = float(s[1] - 1), wd = float(s[2] - 1);
  std::vector<preprocessing::ProjectiveTransform> transforms;
  for (std::int64_t b = 0; b < s[0]; ++b) {
    const float zy = 1.f + uniform(height_factor_.lower(), height_factor_.upper());
    const float zx = options_.width_factor
                         ? 1.f + uniform(options_.width_factor->lower(), options_.width_factor->upper())
                         : zy;
    transforms.push_back({zx, 0.f, wd / 2.f * (1.f - zx), 0.f, zy, hd / 2.f * (1.f - zy), 0.f, 0.f});
  }
  return preprocessing::transform_images(
      images, transforms, {options_.interpolation, options_.fill_mode, static_cast<float>(options_.fill_value)});
}

json RandomZoom::get_config() const {
  json c = layer_config(*this, options_);
  c["height_factor"] = encode(height_factor_);
  return c;
}

std::shared_ptr<Layer> RandomZoom::from_config(const json& c) {
  Factor height;
  decode(config::required<json>(c, "height_factor"), height);
  return make_from_config<RandomZoom, RandomZoomOptions>(c, height);
}

KERAS_REGISTER_LAYER(RandomZoom)

}  // namespace keras::layers
