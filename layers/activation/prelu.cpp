#include "layers/activation/prelu.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

PReLU::PReLU(PReLUOptions options) : Layer(options.name, "p_re_lu", options.trainable), options_(std::move(options)) {
  set_input_shape(options_.input_shape);
}

void PReLU::build(const Shape& input_shape) {
  if (input_shape.size() < 2)
    throw ValueError(fmt::format("PReLU \"{}\" needs inputs of rank >= 2 (batch, ...), got {}", name(),
                                 shape_str(input_shape)));
  Shape param(input_shape.begin() + 1, input_shape.end());
  for (int a : options_.shared_axes) {
    if (a < 1 || a >= static_cast<int>(input_shape.size()))
      throw ValueError(fmt::format("PReLU \"{}\": shared axis {} is outside 1..{} for input shape {}", name(), a,
                                   input_shape.size() - 1, shape_str(input_shape)));
    param[a - 1] = 1;
  }
  for (auto d : param)
    if (d < 0)
      throw ValueError(fmt::format("PReLU \"{}\" needs known dimensions after the batch axis (or shared_axes over the "
                                   "unknown ones), got input shape {}",
                                   name(), shape_str(input_shape)));
  alpha_ = add_weight("alpha", param, options_.alpha_initializer, true, options_.alpha_regularizer,
                      options_.alpha_constraint);
}

Tensor PReLU::call(const Tensor& x, bool) {
  return ops::relu(x) - ops::multiply(alpha_->value(), ops::relu(-x));
}

json PReLU::get_config() const {
  json c = Layer::get_config();
  c["alpha_initializer"] = initializers::serialize(*options_.alpha_initializer);
  c["alpha_regularizer"] = regularizers::serialize(options_.alpha_regularizer);
  c["alpha_constraint"] = constraints::serialize(options_.alpha_constraint);
  c["shared_axes"] = options_.shared_axes.empty() ? json(nullptr) : json(options_.shared_axes);
  return c;
}

std::shared_ptr<Layer> PReLU::from_config(const json& c) {
  PReLUOptions o{.name = c.value("name", "")};
  if (c.contains("alpha_initializer")) o.alpha_initializer = initializers::Initializer::deserialize(c["alpha_initializer"]);
  if (c.contains("alpha_regularizer")) o.alpha_regularizer = regularizers::deserialize_or_null(c["alpha_regularizer"]);
  if (c.contains("alpha_constraint")) o.alpha_constraint = constraints::deserialize_or_null(c["alpha_constraint"]);
  if (c.contains("shared_axes") && !c["shared_axes"].is_null()) {
    if (c["shared_axes"].is_array()) o.shared_axes = c["shared_axes"].get<std::vector<int>>();
    else o.shared_axes = {c["shared_axes"].get<int>()};
  }
  auto layer = std::make_shared<PReLU>(o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(PReLU)

}  // namespace keras::layers
