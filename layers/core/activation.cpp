#include "layers/core/activation.hpp"

#include "keras/json.hpp"

namespace keras::layers {

Activation::Activation(const std::string& activation, ActivationOptions options)
    : Layer(options.name, "activation"), activation_(activations::get(activation)) {
  set_input_shape(options.input_shape);
}

json Activation::get_config() const {
  json c = Layer::get_config();
  c["activation"] = activation_.name;
  return c;
}

std::shared_ptr<Layer> Activation::from_config(const json& c) {
  auto layer = std::make_shared<Activation>(c.value("activation", "linear"), ActivationOptions{.name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Activation)

}  // namespace keras::layers
