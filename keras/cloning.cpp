#include "keras/cloning.hpp"

#include <map>
#include <string>

#include "keras/functional_graph.hpp"
#include "keras/json.hpp"
#include "keras/registry.hpp"
#include "keras/saving/custom_objects.hpp"
#include "keras/sequential.hpp"
#include "layers/core/input_layer.hpp"

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

/// A functional model rebuilt from its own graph config, each layer (not the Inputs) made by `clone` once:
/// while the graph is rebuilt, a custom-object scope answers every layer entry of the config with the
/// clone made for the layer of that name, so shared layers, call arguments and nested models keep their
/// places in the graph exactly as deserialization lays them out.
std::shared_ptr<Model> clone_functional(const Model& model, const std::function<LayerPtr(const Layer&)>& clone) {
  auto clones = std::make_shared<std::map<std::string, LayerPtr>>();
  CustomObjects objects;
  for (const auto& layer : model.layers()) {
    if (dynamic_cast<const layers::InputLayer*>(layer.get())) continue;
    LayerPtr copy = clone(*layer);
    if (!copy)
      throw ValueError("clone_model: clone_function returned no layer for layer '" + layer->name() + "' of model '" +
                       model.name() + "'");
    (*clones)[layer->name()] = std::move(copy);
    objects.layers[layer->class_name()] = [clones, model_name = model.name()](const json& config) -> LayerPtr {
      const std::string name = config.value("name", std::string());
      auto found = clones->find(name);
      if (found == clones->end())
        throw ValueError("clone_model: the graph of model '" + model_name + "' names a layer '" + name +
                         "' that model.layers() does not list");
      return found->second;
    };
  }
  const json config = model.get_config();
  FunctionalGraph::Endpoints endpoints;
  {
    CustomObjectScope scope(objects);
    endpoints = FunctionalGraph::from_config(config);
  }
  auto copy = std::make_shared<Model>(endpoints.inputs, endpoints.outputs, model.name());
  copy->graph()->set_forms(std::move(endpoints.input_form), std::move(endpoints.output_form));
  return copy;
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
  if (options.clone_function && model.graph()) return clone_functional(model, options.clone_function);
  if (options.clone_function)
    throw ValueError("clone_model: clone_function needs a Sequential or functional model; model '" + model.name() +
                     "' is subclassed (class " + model.class_name() +
                     "), whose layers are built by its own code: clone it without clone_function");
  return as_model(from_own_config(model), model);
}

}  // namespace keras::models
