#include "layers/core/activation.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(ActivationOptions)  // the base fields only; the activation is positional

Activation::Activation(activations::ActivationRef activation, ActivationOptions options)
    : Layer(options, "activation"), activation_(activations::resolve(activation)) {}

EpilogueStep Activation::epilogue_step() const {
  if (!activation_.fusable) return {};
  return {.kind = EpilogueStep::Kind::activation, .activation = activation_.fused};
}

json Activation::get_config() const {
  json c = Layer::get_config();
  c["activation"] = activation_.name;
  return c;
}

std::shared_ptr<Layer> Activation::from_config(const json& c) {
  return make_from_config<Activation, ActivationOptions>(c, config::value_or(c, "activation", std::string("linear")));
}

KERAS_REGISTER_LAYER(Activation)

}  // namespace keras::layers
