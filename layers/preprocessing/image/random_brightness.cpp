#include "layers/preprocessing/image/random_brightness.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomBrightnessOptions, value_range, seed)

RandomBrightness::RandomBrightness(Factor factor, RandomBrightnessOptions options)
    : AugmentationLayer(options, "random_brightness"), factor_(std::move(factor)), options_(std::move(options)) {
  check_factor(factor_, "factor", -1, 1);
  if (!(options_.value_range[0] < options_.value_range[1]))
    throw ValueError(fmt::format("RandomBrightness: `value_range` must be (min, max) with min < max, received ({}, {})",
                                 options_.value_range[0], options_.value_range[1]));
}

Tensor RandomBrightness::augment(const Tensor& images) {
  const auto& s = images.shape();
  const std::int64_t per_image = s[1] * s[2] * s[3];
  const auto lo = static_cast<float>(options_.value_range[0]), hi = static_cast<float>(options_.value_range[1]);
  Tensor out = Tensor::empty(s);
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < s[0]; ++b) {
    const float delta = uniform(factor_.lower(), factor_.upper()) * (hi - lo);
    for (std::int64_t i = b * per_image; i < (b + 1) * per_image; ++i) dst[i] = std::clamp(src[i] + delta, lo, hi);
  }
  return out;
}

json RandomBrightness::get_config() const {
  json c = layer_config(*this, options_);
  c["factor"] = encode(factor_);
  return c;
}

std::shared_ptr<Layer> RandomBrightness::from_config(const json& c) {
  Factor factor;
  decode(config::required<json>(c, "factor"), factor);
  return make_from_config<RandomBrightness, RandomBrightnessOptions>(c, factor);
}

KERAS_REGISTER_LAYER(RandomBrightness)

}  // namespace keras::layers
