#include "layers/activation/elu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

ELU::ELU(double alpha, ELUOptions options) : Layer(options.name, "elu", options.trainable), alpha_(alpha) {
  if (!std::isfinite(alpha))
    throw ValueError(fmt::format("Alpha of an ELU layer cannot be None or non-finite. Received: alpha={}", alpha));
  set_input_shape(options.input_shape);
}

Tensor ELU::call(const Tensor& x, bool) { return ops::eltwise(x, kernels::Eltwise::elu, static_cast<float>(alpha_)); }

json ELU::get_config() const {
  json c = Layer::get_config();
  c["alpha"] = alpha_;
  return c;
}

std::shared_ptr<Layer> ELU::from_config(const json& c) {
  auto layer = std::make_shared<ELU>(c.value("alpha", 1.0), ELUOptions{.name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(ELU)

}  // namespace keras::layers
