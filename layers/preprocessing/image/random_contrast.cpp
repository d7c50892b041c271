#include "layers/preprocessing/image/random_contrast.hpp"

#include <algorithm>

#include "keras/json.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomContrastOptions, seed)

RandomContrast::RandomContrast(Factor factor, RandomContrastOptions options)
    : AugmentationLayer(options, "random_contrast"), factor_(std::move(factor)), options_(std::move(options)) {
  for (double v : factor_.values)
    if (!(v >= 0) || factor_.values.front() > 1)
      throw ValueError("RandomContrast: `factor` cannot have negative values, and its lower part cannot exceed 1 (the "
                       "contrast factor is drawn from [1 - lower, 1 + upper]); received " + encode(factor_).dump());
}

Tensor RandomContrast::augment(const Tensor& images) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], hw = s[1] * s[2], c = s[3];
  const double lower = factor_.values.front(), upper = factor_.values.back();
  Tensor out = Tensor::empty(s);
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < n; ++b) {
    const float k = uniform(1.0 - lower, 1.0 + upper);
    for (std::int64_t ch = 0; ch < c; ++ch) {
      double sum = 0;
      for (std::int64_t i = 0; i < hw; ++i) sum += src[(b * hw + i) * c + ch];
      const auto mean = static_cast<float>(sum / double(hw));
      for (std::int64_t i = 0; i < hw; ++i) {
        const std::int64_t at = (b * hw + i) * c + ch;
        dst[at] = std::clamp((src[at] - mean) * k + mean, 0.f, 255.f);
      }
    }
  }
  return out;
}

json RandomContrast::get_config() const {
  json c = layer_config(*this, options_);
  c["factor"] = encode(factor_);
  return c;
}

std::shared_ptr<Layer> RandomContrast::from_config(const json& c) {
  Factor factor;
  decode(config::required<json>(c, "factor"), factor);
  return make_from_config<RandomContrast, RandomContrastOptions>(c, factor);
}

KERAS_REGISTER_LAYER(RandomContrast)

}  // namespace keras::layers
