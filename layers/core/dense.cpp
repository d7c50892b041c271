#include "layers/core/dense.hpp"

#include "keras/json.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

Dense::Dense(std::int64_t units, DenseOptions options)
    : Layer(options.name, "dense", options.trainable),
      units_(units),
      options_(std::move(options)),
      activation_(activations::get(options_.activation)) {
  if (units <= 0)
    throw ValueError("Received an invalid value for `units`, expected a positive integer. Received: units=" +
                     std::to_string(units));
  set_input_shape(options_.input_shape);
  set_activity_regularizer(options_.activity_regularizer);
}

void Dense::build(const Shape& input_shape) {
  if (input_shape.empty() || input_shape.back() <= 0)
    throw ValueError("Layer \"" + name() + "\" (Dense) needs a known last input dimension, got input shape " +
                     shape_str(input_shape));
  kernel_ = add_weight("kernel", {input_shape.back(), units_}, options_.kernel_initializer, true,
                       options_.kernel_regularizer, options_.kernel_constraint);
  if (options_.use_bias)
    bias_ = add_weight("bias", {units_}, options_.bias_initializer, true, options_.bias_regularizer,
                       options_.bias_constraint);
}

Tensor Dense::call(const Tensor& inputs, bool) {
  if (inputs.ndim() < 1 || inputs.dim(-1) != kernel_->shape()[0])
    throw ValueError("Input 0 of layer \"" + name() + "\" is incompatible with the layer: expected axis -1 of input "
                     "shape to have value " + std::to_string(kernel_->shape()[0]) + ", but received input with shape " +
                     shape_str(inputs.shape()));
  const Tensor bias = bias_ ? bias_->value() : Tensor();
  if (activation_.fusable) return ops::dense(inputs, kernel_->value(), bias, activation_.fused);
  return activation_(ops::dense(inputs, kernel_->value(), bias));
}

Shape Dense::compute_output_shape(const Shape& input_shape) const {
  Shape out = input_shape;
  if (out.empty()) throw ValueError("Dense \"" + name() + "\" needs an input of rank >= 1");
  out.back() = units_;
  return out;
}

json Dense::get_config() const {
  json c = Layer::get_config();
  c["units"] = units_;
  c["activation"] = activation_.name;
  c["use_bias"] = options_.use_bias;
  c["kernel_initializer"] = initializers::serialize(*options_.kernel_initializer);
  c["bias_initializer"] = initializers::serialize(*options_.bias_initializer);
  regularizers::write_penalty_config(c, options_);
  return c;
}

std::shared_ptr<Layer> Dense::from_config(const json& c) {
  DenseOptions o;
  o.name = c.value("name", "");
  o.activation = c.value("activation", "linear");
  o.use_bias = c.value("use_bias", true);
  if (c.contains("kernel_initializer")) o.kernel_initializer = initializers::Initializer::deserialize(c["kernel_initializer"]);
  if (c.contains("bias_initializer")) o.bias_initializer = initializers::Initializer::deserialize(c["bias_initializer"]);
  regularizers::read_penalty_config(c, o);
  auto layer = std::make_shared<Dense>(c.at("units").get<std::int64_t>(), o);
  layer->read_base_config(c);
  return layer;
}

namespace {
const bool registered = register_class<Layer, Dense>("Dense");
}

}  // namespace keras::layers
