#include "layers/preprocessing/image/random_flip.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(RandomFlipOptions, mode, seed)

RandomFlip::RandomFlip(RandomFlipOptions options) : AugmentationLayer(options, "random_flip"), options_(std::move(options)) {
  const auto& m = options_.mode;
  if (m != "horizontal" && m != "vertical" && m != "horizontal_and_vertical")
    throw ValueError(fmt::format("RandomFlip: unknown `mode` \"{}\"; use \"horizontal\", \"vertical\" or "
                                 "\"horizontal_and_vertical\"",
                                 m));
}

Tensor RandomFlip::augment(const Tensor& images) {
  const auto& s = images.shape();
  const std::int64_t n = s[0], h = s[1], w = s[2], c = s[3];
  const bool may_h = options_.mode != "vertical", may_v = options_.mode != "horizontal";
  Tensor out = Tensor::empty(s);
  const float* src = images.data<float>();
  float* dst = out.data<float>();
  for (std::int64_t b = 0; b < n; ++b) {
    const bool flip_h = may_h && uniform(0, 1) < 0.5f;
    const bool flip_v = may_v && uniform(0, 1) < 0.5f;
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x) {
        const std::int64_t sy = flip_v ? h - 1 - y : y, sx = flip_h ? w - 1 - x : x;
        const float* p = src + ((b * h + sy) * w + sx) * c;
        std::copy(p, p + c, dst + ((b * h + y) * w + x) * c);
      }
  }
  return out;
}

json RandomFlip::get_config() const { return layer_config(*this, options_); }

std::shared_ptr<Layer> RandomFlip::from_config(const json& c) { return make_from_config<RandomFlip, RandomFlipOptions>(c); }

KERAS_REGISTER_LAYER(RandomFlip)

}  // namespace keras::layers
