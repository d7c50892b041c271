#include "layers/activation/relu.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(ReLUOptions, max_value, negative_slope, threshold)

ReLU::ReLU(ReLUOptions options) : Layer(options, "re_lu"), options_(std::move(options)) {
  if (options_.max_value && *options_.max_value < 0)
    throw ValueError(fmt::format("max_value of a ReLU layer cannot be a negative value. Received: max_value={}",
                                 *options_.max_value));
  if (options_.negative_slope < 0)
    throw ValueError(fmt::format("negative_slope of a ReLU layer cannot be a negative value. Received: "
                                 "negative_slope={}",
                                 options_.negative_slope));
}

Tensor ReLU::call(const Tensor& x, bool) {
  const float slope = static_cast<float>(options_.negative_slope), threshold = static_cast<float>(options_.threshold);
  if (threshold == 0.f && !options_.max_value) return ops::relu(x, slope);
  if (threshold == 0.f && slope == 0.f) return ops::clip(x, 0.f, static_cast<float>(*options_.max_value));
  // The general case, as Keras's backend.relu: a mask picks the linear part above the threshold.
  const Tensor above = ops::greater(x, Tensor::scalar(threshold));
  Tensor out = ops::multiply(x, above);
  if (options_.max_value) out = ops::minimum(out, Tensor::scalar(static_cast<float>(*options_.max_value)));
  if (slope != 0.f) out = out + ops::multiply((x - threshold) * slope, 1.f - above);
  return out;
}

EpilogueStep ReLU::epilogue_step() const {
  if (options_.max_value || options_.negative_slope != 0.0 || options_.threshold != 0.0) return {};
  return {.kind = EpilogueStep::Kind::activation, .activation = kernels::Eltwise::relu};
}

json ReLU::get_config() const {
  return layer_config(*this, options_);
}

std::shared_ptr<Layer> ReLU::from_config(const json& c) {
  return make_from_config<ReLU, ReLUOptions>(c);
}

KERAS_REGISTER_LAYER(ReLU)

}  // namespace keras::layers
