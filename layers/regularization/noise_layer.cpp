#include "layers/regularization/noise_layer.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

NoiseLayer::NoiseLayer(const NoiseOptions& options, const std::string& prefix)
    : Layer(options.name, prefix, options.trainable), seed_(options.seed), seeded_(options.seed.value_or(0)) {
  set_input_shape(options.input_shape);
}

std::mt19937_64& NoiseLayer::generator() { return seed_ ? seeded_ : utils::random_generator(); }

json NoiseLayer::get_config() const {
  json c = Layer::get_config();
  c["seed"] = seed_ ? json(*seed_) : json(nullptr);
  return c;
}

NoiseOptions NoiseLayer::options_from_config(const json& c) {
  NoiseOptions o{.name = c.value("name", "")};
  if (c.contains("seed") && !c["seed"].is_null()) o.seed = c["seed"].get<std::uint64_t>();
  return o;
}

void NoiseLayer::check_rate(double rate, const std::string& owner) {
  if (!(rate >= 0.0 && rate < 1.0))
    throw ValueError(fmt::format("{}: invalid value received for argument `rate`: expected a float in [0, 1), "
                                 "received rate={}",
                                 owner, rate));
}

}  // namespace keras::layers
