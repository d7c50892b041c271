#include "layers/activation/leaky_relu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(LeakyReLUOptions)  // the base fields only; alpha is positional

LeakyReLU::LeakyReLU(double alpha, LeakyReLUOptions options)
    : Layer(options, "leaky_re_lu"), alpha_(alpha) {
  if (!std::isfinite(alpha))
    throw ValueError(fmt::format("The alpha value of a Leaky ReLU layer cannot be None or non-finite. Received: "
                                 "alpha={}",
                                 alpha));
}

Tensor LeakyReLU::call(const Tensor& x, bool) { return ops::relu(x, static_cast<float>(alpha_)); }

json LeakyReLU::get_config() const {
  json c = Layer::get_config();
  c["alpha"] = alpha_;
  return c;
}

std::shared_ptr<Layer> LeakyReLU::from_config(const json& c) {
  // Keras 3 names the argument negative_slope.
  const double alpha = config::value_or(c, "alpha", config::value_or(c, "negative_slope", 0.3));
  return make_from_config<LeakyReLU, LeakyReLUOptions>(c, alpha);
}

KERAS_REGISTER_LAYER(LeakyReLU)

}  // namespace keras::layers
