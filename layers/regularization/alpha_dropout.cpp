#include "layers/regularization/alpha_dropout.hpp"

#include <cmath>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

AlphaDropout::AlphaDropout(double rate, NoiseOptions options) : NoiseLayer(options, "alpha_dropout"), rate_(rate) {
  check_rate(rate, "AlphaDropout");
}

Tensor AlphaDropout::apply_mask(const Tensor& x, const Tensor& keep) const {
  // SELU's constants; alpha_p is its limit for x → -inf.
  constexpr double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
  constexpr double alpha_p = -alpha * scale;
  const double a = std::pow((1 - rate_) * (1 + rate_ * alpha_p * alpha_p), -0.5);
  const double b = -a * alpha_p * rate_;
  Tensor kept = ops::multiply(x, keep) + (1.f - keep) * static_cast<float>(alpha_p);
  return kept * static_cast<float>(a) + static_cast<float>(b);
}

Tensor AlphaDropout::call(const Tensor& x, bool training) {
  if (!training || rate_ <= 0.0) return x;
  Tensor keep = Tensor::empty(x.shape());
  std::uniform_real_distribution<float> u(0.f, 1.f);
  auto& gen = utils::engine(generator());
  float* p = keep.data<float>();
  for (std::int64_t i = 0; i < keep.size(); ++i) p[i] = u(gen) >= rate_ ? 1.f : 0.f;
  return apply_mask(x, keep);
}

json AlphaDropout::get_config() const {
  json c = NoiseLayer::get_config();
  c["rate"] = rate_;
  return c;
}

std::shared_ptr<Layer> AlphaDropout::from_config(const json& c) {
  auto layer = std::make_shared<AlphaDropout>(config::required<double>(c, "rate"), options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(AlphaDropout)

}  // namespace keras::layers
