#include "layers/regularization/noise_layer.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

KERAS_FIELDS(NoiseOptions, seed)

NoiseLayer::NoiseLayer(const NoiseOptions& options, const std::string& prefix)
    : Layer(options, prefix), options_(options), seed_generator_(options.seed) {}


json NoiseLayer::get_config() const { return layer_config(*this, options_); }

NoiseOptions NoiseLayer::options_from_config(const json& c) { return keras::options_from_config<NoiseOptions>(c); }

void NoiseLayer::check_rate(double rate, const std::string& owner) {
  if (!(rate >= 0.0 && rate < 1.0))
    throw ValueError(fmt::format("{}: invalid value received for argument `rate`: expected a float in [0, 1), "
                                 "received rate={}",
                                 owner, rate));
}

}  // namespace keras::layers
