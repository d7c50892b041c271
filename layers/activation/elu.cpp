#include "layers/activation/elu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(ELUOptions)  // the base fields only; alpha is positional

ELU::ELU(double alpha, ELUOptions options) : Layer(options, "elu"), alpha_(alpha) {
  if (!std::isfinite(alpha))
    throw ValueError(fmt::format("Alpha of an ELU layer cannot be None or non-finite. Received: alpha={}", alpha));
}

Tensor ELU::call(const Tensor& x, bool) { return ops::eltwise(x, kernels::Eltwise::elu, static_cast<float>(alpha_)); }

json ELU::get_config() const {
  json c = Layer::get_config();
  c["alpha"] = alpha_;
  return c;
}

std::shared_ptr<Layer> ELU::from_config(const json& c) {
  return make_from_config<ELU, ELUOptions>(c, config::value_or(c, "alpha", 1.0));
}

KERAS_REGISTER_LAYER(ELU)

}  // namespace keras::layers
