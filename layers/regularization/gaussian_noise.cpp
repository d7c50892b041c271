#include "layers/regularization/gaussian_noise.hpp"

#include <fmt/format.h>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

GaussianNoise::GaussianNoise(double stddev, NoiseOptions options)
    : NoiseLayer(options, "gaussian_noise"), stddev_(stddev) {
  if (!(stddev >= 0)) throw ValueError(fmt::format("GaussianNoise: stddev must be >= 0, received {}", stddev));
}

Tensor GaussianNoise::call(const Tensor& x, bool training) {
  if (!training || stddev_ == 0.0) return x;
  Tensor noise = Tensor::empty(x.shape());
  std::normal_distribution<float> dist(0.f, static_cast<float>(stddev_));
  auto& gen = utils::engine(generator());
  float* p = noise.data<float>();
  for (std::int64_t i = 0; i < noise.size(); ++i) p[i] = dist(gen);
  return ops::add(x, noise);
}

json GaussianNoise::get_config() const {
  json c = NoiseLayer::get_config();
  c["stddev"] = stddev_;
  return c;
}

std::shared_ptr<Layer> GaussianNoise::from_config(const json& c) {
  auto layer = std::make_shared<GaussianNoise>(config::required<double>(c, "stddev"), options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(GaussianNoise)

}  // namespace keras::layers
