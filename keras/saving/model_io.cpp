// Model::save / save_weights / load_weights / to_json and keras::models::load_model: the Keras HDF5
// model file (root attributes model_config and training_config, groups model_weights and
// optimizer_weights).
#include <fstream>
#include <iostream>
#include <map>

#include "keras/model.hpp"
#include "keras/models.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/optimizer_weights.hpp"
#include "keras/saving/training_config.hpp"
#include "keras/training/compiled_metrics.hpp"

namespace keras {
namespace {

json model_config(const Model& model) { return serialize_object(model.class_name(), model.get_config()); }

std::shared_ptr<Model> as_model(std::shared_ptr<Layer> layer, const std::string& where) {
  auto model = std::dynamic_pointer_cast<Model>(layer);
  if (!model)
    throw ValueError("The configuration in " + where + " describes a " + layer->class_name() + " layer, not a model");
  return model;
}

// Real Keras 2.11+ writes optimizer class names as "Custom>Adam".
json strip_custom_prefix(json config) {
  if (config.is_object() && config.contains("class_name")) {
    std::string name = config["class_name"];
    if (name.rfind("Custom>", 0) == 0) config["class_name"] = name.substr(7);
  }
  return config;
}

metrics::MetricRef metric_from_training_config(const json& m) {
  if (m.is_string()) return metrics::MetricRef(m.get<std::string>());
  // tf.keras 2.13 writes string metrics as MeanMetricWrapper{name, fn}: the name is what the user wrote.
  if (m.is_object() && m.value("class_name", "") == "MeanMetricWrapper")
    return metrics::MetricRef(m["config"].value("name", m["config"].value("fn", "")));
  return metrics::MetricRef(metrics::Metric::deserialize(m));
}

}  // namespace

void saving::compile_from_training_config(Model& model, const json& tc) {
  CompileOptions options;
  if (tc.contains("optimizer_config")) options.optimizer = optimizers::Optimizer::deserialize(strip_custom_prefix(tc["optimizer_config"]));
  const json& loss = tc.at("loss");
  options.loss = loss.is_string() ? losses::LossRef(loss.get<std::string>()) : losses::LossRef(losses::Loss::deserialize(loss));
  if (tc.contains("metrics") && tc["metrics"].is_array()) {
    for (const auto& entry : tc["metrics"]) {
      if (entry.is_array())  // one list per output
        for (const auto& m : entry) options.metrics.push_back(metric_from_training_config(m));
      else if (!entry.is_null())
        options.metrics.push_back(metric_from_training_config(entry));
    }
  }
  model.compile(options);
}

json Model::training_config() const {
  if (!compiled_) return nullptr;
  return json{{"loss", losses::serialize(*state_->loss)},
              {"metrics", state_->metrics.serialize()},
              {"weighted_metrics", nullptr},
              {"loss_weights", nullptr},
              {"optimizer_config", optimizers::serialize(*state_->optimizer)}};
}

std::string Model::to_json() const {
  json j = model_config(*this);
  j["keras_version"] = saving::kKerasVersion;
  j["backend"] = "tensorflow";
  return j.dump();
}

void Model::save(const std::string& path, SaveOptions options) const {
  saving::write_atomically(path, [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    root.set_string_attr("keras_version", saving::kKerasVersion);
    root.set_string_attr("backend", "tensorflow");
    root.set_string_attr("model_config", model_config(*this).dump());
    if (compiled_ && options.include_optimizer) root.set_string_attr("training_config", training_config().dump());
    hdf5::Group weights = root.create_group("model_weights");
    saving::save_weights_to_group(weights, layers());
    if (compiled_ && options.include_optimizer) saving::save_optimizer_weights(root, *state_->optimizer, layers());
  });
}

void Model::save_weights(const std::string& path) const {
  saving::write_atomically(path, [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    saving::save_weights_to_group(root, layers());
  });
}

void Model::load_weights(const std::string& path, LoadWeightsOptions options) {
  hdf5::File file = hdf5::File::open(path);
  hdf5::Group root = file.root();
  const hdf5::Group group = root.has("model_weights") ? root.open_group("model_weights") : std::move(root);
  if (!built() && !batch_input_shape())
    throw ValueError("Cannot load weights into model '" + name() + "' before it is built: call build(input_shape) "
                     "or call it on a batch of data first, so that its weights exist");
  saving::load_weights_from_group(group, layers(), options.by_name, options.skip_mismatch);
}

namespace models {

std::shared_ptr<Model> model_from_json(const std::string& json_text, const CustomObjects& custom_objects) {
  CustomObjectScope scope(custom_objects);
  json config;
  try {
    config = json::parse(json_text);
  } catch (const json::exception& e) {
    throw ValueError(std::string("model_from_json: the text is not valid JSON: ") + e.what());
  }
  return as_model(Layer::deserialize(config), "the JSON text");
}

std::shared_ptr<Model> load_model(const std::string& path, LoadModelOptions options) {
  CustomObjectScope scope(options.custom_objects);
  hdf5::File file = hdf5::File::open(path);
  hdf5::Group root = file.root();
  if (!root.has_attr("model_config"))
    throw ValueError("No model config found in the file at " + path +
                     " (it holds weights only: build the model in code and call load_weights)");
  json config;
  try {
    config = json::parse(root.string_attr("model_config"));
  } catch (const json::exception& e) {
    throw IOError("The model_config in " + path + " is not valid JSON: " + e.what());
  }
  auto model = as_model(Layer::deserialize(config), path);
  if (!model->built() && model->batch_input_shape()) model->ensure_built(*model->batch_input_shape());
  saving::load_weights_from_group(root.open_group("model_weights"), model->layers(), false, false);
  if (options.compile && root.has_attr("training_config")) {
    json tc;
    try {
      tc = json::parse(root.string_attr("training_config"));
    } catch (const json::exception& e) {
      throw IOError("The training_config in " + path + " is not valid JSON: " + e.what());
    }
    saving::compile_from_training_config(*model, tc);
    if (root.has("optimizer_weights") && !saving::load_optimizer_weights(root, model->optimizer(), model->layers()))
      std::cerr << "Warning: the optimizer state saved in " << path
                << " does not match the model's optimizer; training resumes with a fresh optimizer.\n";
  }
  return model;
}

}  // namespace models
}  // namespace keras
