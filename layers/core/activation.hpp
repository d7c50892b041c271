#pragma once
// Activation: applies an activation function, named ("relu") or any C++ callable.

#include "keras/activations.hpp"
#include "keras/layer.hpp"

namespace keras::layers {

struct ActivationOptions {
  KERAS_LAYER_OPTIONS
};

class Activation : public Layer {
 public:
  /// A name ("relu", built-in or registered) or any C++ callable, as Keras's Activation(fn):
  /// `layers::Activation([](const Tensor& x) { return x * ops::sigmoid(x); })`. A callable's config names it
  /// "<lambda>" as Keras does for a lambda, and a model holding one cannot be saved; register the function
  /// with activations::register_activation and pass its name (or the registered function) to save and load it.
  explicit Activation(activations::ActivationRef activation, ActivationOptions options = {});
  Tensor call(const Tensor& inputs, bool /*training*/) override { return activation_(inputs); }
  EpilogueStep epilogue_step() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  activations::Activation activation_;

  KERAS_LAYER(Activation)
};

}  // namespace keras::layers
