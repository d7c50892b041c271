#pragma once
// Activation: applies a named activation function.
#include "keras/activations.hpp"
#include "keras/layer.hpp"

namespace keras::layers {

struct ActivationOptions {
  KERAS_LAYER_OPTIONS
};

class Activation : public Layer {
 public:
  explicit Activation(const std::string& activation, ActivationOptions options = {});
  Tensor call(const Tensor& inputs, bool /*training*/) override { return activation_(inputs); }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  activations::Activation activation_;

  KERAS_LAYER(Activation)
};

}  // namespace keras::layers
