#pragma once
// keras::models: loading whole models (keras.models.load_model / model_from_json).
#include <memory>
#include <string>

#include "keras/model.hpp"
#include "keras/saving/custom_objects.hpp"

namespace keras::models {

struct LoadModelOptions {
  bool compile = true;  // compile with the saved training configuration, when there is one
  /// Classes the registry does not know (custom layers, losses, metrics), by class name.
  CustomObjects custom_objects{};
};

/// A model saved by Model::save or by real Keras (.h5 from Keras 2.x or 3.x).
std::shared_ptr<Model> load_model(const std::string& path, LoadModelOptions options = {});
/// A model (unbuilt weights) from Keras JSON: Keras 2's {"class_name", "config"} or Keras 3's schema.
std::shared_ptr<Model> model_from_json(const std::string& json_text, const CustomObjects& custom_objects = {});

}  // namespace keras::models
