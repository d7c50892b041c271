#include "layers/regularization/gaussian_dropout.hpp"

#include <cmath>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

GaussianDropout::GaussianDropout(double rate, NoiseOptions options)
    : NoiseLayer(options, "gaussian_dropout"), rate_(rate) {
  check_rate(rate, "GaussianDropout");
}

Tensor GaussianDropout::call(const Tensor& x, bool training) {
  if (!training || rate_ == 0.0) return x;
  Tensor noise = Tensor::empty(x.shape());
  std::normal_distribution<float> dist(1.f, static_cast<float>(std::sqrt(rate_ / (1.0 - rate_))));
  auto& gen = utils::engine(generator());
  float* p = noise.data<float>();
  for (std::int64_t i = 0; i < noise.size(); ++i) p[i] = dist(gen);
  return ops::multiply(x, noise);
}

json GaussianDropout::get_config() const {
  json c = NoiseLayer::get_config();
  c["rate"] = rate_;
  return c;
}

std::shared_ptr<Layer> GaussianDropout::from_config(const json& c) {
  auto layer = std::make_shared<GaussianDropout>(config::required<double>(c, "rate"), options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(GaussianDropout)

}  // namespace keras::layers
