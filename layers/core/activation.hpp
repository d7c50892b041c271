#pragma once
// Activation: applies an activation function, named ("relu") or any C++ callable.
#include <functional>
#include <string>

#include "keras/activations.hpp"
#include "keras/layer.hpp"

namespace keras::layers {

struct ActivationOptions {
  KERAS_LAYER_OPTIONS
};

class Activation : public Layer {
 public:
  explicit Activation(const std::string& activation, ActivationOptions options = {});
  /// A callable, as Keras's Activation(fn): `layers::Activation([](const Tensor& x) { return x * ops::sigmoid(x); })`.
  /// Its config names it "<lambda>" as Keras does for a lambda; to save and load the layer, register the
  /// function with activations::register_activation and pass the name instead.
  explicit Activation(std::function<Tensor(const Tensor&)> activation, ActivationOptions options = {});
  explicit Activation(const char* activation, ActivationOptions options = {})
      : Activation(std::string(activation), std::move(options)) {}
  Tensor call(const Tensor& inputs, bool /*training*/) override { return activation_(inputs); }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  activations::Activation activation_;

  KERAS_LAYER(Activation)
};

}  // namespace keras::layers
