#include "layers/activation/leaky_relu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

LeakyReLU::LeakyReLU(double alpha, LeakyReLUOptions options)
    : Layer(options.name, "leaky_re_lu", options.trainable), alpha_(alpha) {
  if (!std::isfinite(alpha))
    throw ValueError(fmt::format("The alpha value of a Leaky ReLU layer cannot be None or non-finite. Received: "
                                 "alpha={}",
                                 alpha));
  set_input_shape(options.input_shape);
}

Tensor LeakyReLU::call(const Tensor& x, bool) { return ops::relu(x, static_cast<float>(alpha_)); }

json LeakyReLU::get_config() const {
  json c = Layer::get_config();
  c["alpha"] = alpha_;
  return c;
}

std::shared_ptr<Layer> LeakyReLU::from_config(const json& c) {
  // Keras 3 names the argument negative_slope.
  const double alpha = c.contains("alpha") ? c["alpha"].get<double>() : c.value("negative_slope", 0.3);
  auto layer = std::make_shared<LeakyReLU>(alpha, LeakyReLUOptions{.name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(LeakyReLU)

}  // namespace keras::layers
