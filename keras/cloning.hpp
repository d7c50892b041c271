#pragma once
// keras::models::clone_model (keras.models.clone_model): a new model of the same architecture with new
// weights, its layers re-created from their configs or by a function of the caller's.
#include <functional>
#include <memory>

#include "keras/model.hpp"

namespace keras::models {

struct CloneModelOptions {
  /// Makes the new layer for each layer of the model (Keras's clone_function), called once per layer (a
  /// shared layer stays shared), never for the Input layers, which are always new; default: the layer's
  /// class from its get_config(), so the new layer has the same name and configuration and fresh weights.
  /// Returning the layer itself shares it (and its weights) with the original. Sequential and functional
  /// models; a subclassed model has no graph to rebuild and refuses it.
  std::function<LayerPtr(const Layer&)> clone_function{};
};

/// A new, uncompiled model with the architecture of `model` and newly initialized weights (copy them with
/// `clone->set_weights(model.get_weights())` to share values). Sequential stays Sequential, a functional
/// model stays functional, a registered subclassed model is rebuilt from its config.
///
///     auto twin = k::models::clone_model(model);
///     auto no_dropout = k::models::clone_model(model, {.clone_function = [](const k::Layer& l) -> k::LayerPtr {
///       if (l.class_name() == "Dropout") return std::make_shared<k::layers::Dropout>(0.0);
///       return k::Layer::deserialize(k::serialize_object(l.class_name(), l.get_config())); }});
std::shared_ptr<Model> clone_model(const Model& model, const CloneModelOptions& options = {});

}  // namespace keras::models
