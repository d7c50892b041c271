#include "keras/cloning.hpp"

#include "keras/json.hpp"
#include "keras/registry.hpp"
#include "keras/sequential.hpp"

namespace keras::models {

namespace {

LayerPtr from_own_config(const Layer& layer) {
  return Layer::deserialize(serialize_object(layer.class_name(), layer.get_config()));
}

std::shared_ptr<Model> as_model(const LayerPtr& layer, const Model& original) {
  auto model = std::dynamic_pointer_cast<Model>(layer);
  if (!model)
    throw ValueError("clone_model: the config of model '" + original.name() + "' (class " + original.class_name() +
                     ") did not make a Model; register the class with KERAS_LAYER and give it from_config");
  return model;
}

}  // namespace

std::shared_ptr<Model> clone_model(const Model& model, const CloneModelOptions& options) {
  if (const auto* sequential = dynamic_cast<const Sequential*>(&model)) {
    const auto& clone = options.clone_function ? options.clone_function : from_own_config;
    std::vector<LayerRef> layers;
    if (model.graph()) {  // a fresh Input of the same name and shape, as Keras: the InputLayer is not shared
      const KerasTensor in = model.inputs().at(0);
      layers.emplace_back(Input(Shape(in.shape().begin() + 1, in.shape().end()),
                                {.name = in.node() ? in.node()->layer->name() : "",
                                 .batch_size = in.shape().empty() ? -1 : in.shape()[0], .dtype = in.dtype()}));
    }
    for (const auto& layer : sequential->layers()) {
      LayerPtr copy = clone(*layer);
      if (!copy)
        throw ValueError("clone_model: clone_function returned no layer for layer '" + layer->name() + "' of model '" +
                         model.name() + "'");
      layers.emplace_back(std::move(copy));
    }
    return std::make_shared<Sequential>(layers, model.name());
  }
  if (options.clone_function)
    throw ValueError("clone_model: clone_function is supported for Sequential models only; model '" +
                              model.name() + "' is " + (model.graph() ? "functional" : "subclassed") +
                              ": clone it without clone_function, or rebuild the graph with the layers you want");
  return as_model(from_own_config(model), model);
}

}  // namespace keras::models
