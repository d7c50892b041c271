#include "layers/activation/relu.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

ReLU::ReLU(ReLUOptions options) : Layer(options.name, "re_lu", options.trainable), options_(std::move(options)) {
  if (options_.max_value && *options_.max_value < 0)
    throw ValueError(fmt::format("max_value of a ReLU layer cannot be a negative value. Received: max_value={}",
                                 *options_.max_value));
  if (options_.negative_slope < 0)
    throw ValueError(fmt::format("negative_slope of a ReLU layer cannot be a negative value. Received: "
                                 "negative_slope={}",
                                 options_.negative_slope));
  set_input_shape(options_.input_shape);
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

json ReLU::get_config() const {
  json c = Layer::get_config();
  c["max_value"] = options_.max_value ? json(*options_.max_value) : json(nullptr);
  c["negative_slope"] = options_.negative_slope;
  c["threshold"] = options_.threshold;
  return c;
}

std::shared_ptr<Layer> ReLU::from_config(const json& c) {
  ReLUOptions o{.name = c.value("name", "")};
  if (c.contains("max_value") && !c["max_value"].is_null()) o.max_value = c["max_value"].get<double>();
  if (c.contains("negative_slope") && !c["negative_slope"].is_null()) o.negative_slope = c["negative_slope"].get<double>();
  if (c.contains("threshold") && !c["threshold"].is_null()) o.threshold = c["threshold"].get<double>();
  auto layer = std::make_shared<ReLU>(o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(ReLU)

}  // namespace keras::layers
