#include "layers/activation/thresholded_relu.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

KERAS_FIELDS(ThresholdedReLUOptions)  // the base fields only; theta is positional

ThresholdedReLU::ThresholdedReLU(double theta, ThresholdedReLUOptions options)
    : Layer(options, "thresholded_re_lu"), theta_(theta) {
  if (!std::isfinite(theta) || theta < 0)
    throw ValueError(fmt::format("The theta value of a Thresholded ReLU layer should be >= 0 and finite. Received: "
                                 "theta={}", theta));
  supports_masking_ = true;
}

// The 0/1 mask carries no gradient, so the product's gradient is the mask itself.
Tensor ThresholdedReLU::call(const Tensor& x, bool) {
  return ops::multiply(x, ops::greater(x, Tensor::scalar(static_cast<float>(theta_))));
}

json ThresholdedReLU::get_config() const {
  json c = Layer::get_config();
  c["theta"] = theta_;
  return c;
}

std::shared_ptr<Layer> ThresholdedReLU::from_config(const json& c) {
  const auto it = c.find("theta");
  const double theta = it == c.end() || it->is_null() ? 1.0 : it->get<double>();
  return make_from_config<ThresholdedReLU, ThresholdedReLUOptions>(c, theta);
}

KERAS_REGISTER_LAYER(ThresholdedReLU)

}  // namespace keras::layers
