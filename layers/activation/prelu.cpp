#include "layers/activation/prelu.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

// shared_axes is written and read by hand: Keras writes None for no shared axes, and one axis as an int or a list.
KERAS_FIELDS(PReLUOptions, alpha_initializer, alpha_regularizer, alpha_constraint)

PReLU::PReLU(PReLUOptions options) : Layer(options, "p_re_lu"), options_(std::move(options)) {}

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
  json c = layer_config(*this, options_);
  c["shared_axes"] = options_.shared_axes.empty() ? json(nullptr) : json(options_.shared_axes);
  return c;
}

std::shared_ptr<Layer> PReLU::from_config(const json& c) {
  auto o = options_from_config<PReLUOptions>(c);
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
