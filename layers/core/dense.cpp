#include "layers/core/dense.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

KERAS_FIELDS(DenseOptions, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
             bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint)

Dense::Dense(std::int64_t units, DenseOptions options)
    : Layer(options, "dense"),
      units_(units),
      options_(std::move(options)),
      activation_(activations::resolve(options_.activation)) {
  if (units <= 0)
    throw ValueError("Received an invalid value for `units`, expected a positive integer. Received: units=" +
                     std::to_string(units));
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
  json c = layer_config(*this, options_);
  c["units"] = units_;
  c["activation"] = activation_.name;  // the canonical name of an alias
  return c;
}

std::shared_ptr<Layer> Dense::from_config(const json& c) {
  return make_from_config<Dense, DenseOptions>(c, config::required<std::int64_t>(c, "units"));
}

KERAS_REGISTER_LAYER(Dense)

}  // namespace keras::layers
