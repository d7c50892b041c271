// Model::save / save_weights / load_weights / to_json and keras::models::load_model. The format follows
// the file name as in Keras 3: `.keras` archives (keras_archive.hpp); `.h5`/`.hdf5` HDF5 model files (root
// attributes model_config and training_config, groups model_weights and optimizer_weights); weights in
// Keras 3's `*.weights.h5` object-path layout, its sharded `*.weights.json`, or Keras 2's HDF5 layout.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "keras/activations.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"
#include "keras/models.hpp"
#include "keras/saving/config_errors.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/keras3_config.hpp"
#include "keras/saving/keras_archive.hpp"
#include "keras/saving/zip_archive.hpp"
#include "keras/saving/object_path_layout.hpp"
#include "keras/saving/sharded_weights.hpp"
#include "keras/saving/optimizer_weights.hpp"
#include "keras/saving/training_config.hpp"
#include "keras/trainers/structure_json.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {
namespace {

json model_config(const Model& model) {
  json config = serialize_object(model.class_name(), model.get_config());
  activations::check_savable(config);  // a C++ callable as an activation: the layer and the fix
  return config;
}

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

losses::LossRef loss_from_json(const json& l) {
  return l.is_string() ? losses::LossRef(l.get<std::string>()) : losses::LossRef(losses::Loss::deserialize(l));
}

// A list or a map by output name (Keras writes compile's loss and loss_weights as given); null entries
// (an output without a loss) are left out.
template <class T, class F>
Structure<T> structure_from_json(const json& j, F&& one) {
  if (j.is_object() && !j.contains("class_name")) {
    std::map<std::string, T> by_name;
    for (const auto& [k, v] : j.items())
      if (!v.is_null()) by_name.emplace(k, one(v));
    return Structure<T>(std::move(by_name));
  }
  if (j.is_array()) {
    std::vector<T> list;
    for (const auto& v : j) {
      if (v.is_null()) throw ValueError("training_config: a list of losses with null entries is not supported; use a map");
      list.push_back(one(v));
    }
    return Structure<T>(std::move(list));
  }
  if (j.is_null()) return {};
  return Structure<T>(one(j));
}

// Whether the file name ends in `suffix` (lower case), in any case: "M.KERAS" is a .keras file.
bool has_extension(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

bool is_hdf5_name(const std::string& path) { return has_extension(path, ".h5") || has_extension(path, ".hdf5"); }

bool looks_like_hdf5(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  return in.gcount() == 8 && std::string(magic, 8) == "\x89HDF\r\n\x1a\n";
}

}  // namespace

void saving::compile_from_training_config(Model& model, const json& tc) {
  CompileOptions options;
  if (tc.contains("optimizer_config")) options.optimizer = optimizers::Optimizer::deserialize(strip_custom_prefix(tc["optimizer_config"]));
  options.loss = structure_from_json<losses::LossRef>(tc.at("loss"), loss_from_json);
  options.loss_weights = structure_from_json<double>(tc.value("loss_weights", json()), [](const json& w) { return w.get<double>(); });
  if (tc.contains("metrics")) options.metrics = MetricsSpec::deserialize(tc["metrics"]);
  if (tc.contains("weighted_metrics")) options.weighted_metrics = MetricsSpec::deserialize(tc["weighted_metrics"]);
  model.compile(options);
}

json Model::training_config() const {
  if (!compiled()) return nullptr;
  const CompileOptions& o = trainer_->options();
  // A loss given by name is written by name, as Keras writes compile()'s arguments.
  auto loss = [](const losses::LossRef& l) { return l.identifier().empty() ? losses::serialize(*l) : json(l.identifier()); };
  return json{{"loss", serialize_structure(o.loss, loss)},
              {"metrics", o.metrics.serialize()},
              {"weighted_metrics", o.weighted_metrics.empty() ? json() : o.weighted_metrics.serialize()},
              {"loss_weights", serialize_structure(o.loss_weights, [](double w) { return json(w); })},
              {"optimizer_config", optimizers::serialize(optimizer())}};
}

json Model::compile_config() const {
  if (!compiled()) return nullptr;
  if (compile_config_) return *compile_config_;
  return saving::keras3_compile_config(training_config(), trainer_->options().optimizer.identifier());
}

void Model::compile_from_config(const json& config) {
  saving::compile_from_training_config(*this, saving::training_config_from_keras3(config));
  compile_config_ = std::make_shared<const json>(config);
}

std::string Model::to_json() const {
  json j = model_config(*this);
  j["keras_version"] = saving::kKerasVersion;
  j["backend"] = "tensorflow";
  return j.dump();
}

void Model::save(const std::string& path, SaveOptions options) const {
  if (has_extension(path, ".keras")) return saving::save_keras_archive(*this, path, options.include_optimizer);
  if (!is_hdf5_name(path))
    throw ValueError("Cannot save model '" + name() + "' to " + path + ": the file name must end in '.keras' (Keras 3's "
                     "format, which Keras 3 loads by default) or '.h5'/'.hdf5' (the HDF5 format of Keras 2)");
  saving::write_atomically(path, [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    root.set_string_attr("keras_version", saving::kKerasVersion);
    root.set_string_attr("backend", "tensorflow");
    root.set_string_attr("model_config", model_config(*this).dump());
    if (compiled() && options.include_optimizer) root.set_string_attr("training_config", training_config().dump());
    hdf5::Group weights = root.create_group("model_weights");
    saving::save_weights_to_group(weights, layers());
    if (compiled() && options.include_optimizer) saving::save_optimizer_weights(root, optimizer(), layers());
  });
}

void Model::save_weights(const std::string& path, SaveWeightsOptions options) const {
  if (has_extension(path, ".weights.json")) return saving::save_sharded_weights(*this, path, options.max_shard_size.value_or(5.0));
  if (options.max_shard_size)
    throw ValueError("save_weights: max_shard_size needs a file name ending in '.weights.json' (the manifest of the "
                     "shards), got " + path);
  const bool keras3 = has_extension(path, ".weights.h5");
  saving::write_atomically(path, [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    if (keras3)
      saving::save_object_path_weights(root, *this, true);
    else
      saving::save_weights_to_group(root, layers());
  });
}

void Model::load_weights(const std::string& path, LoadWeightsOptions options) {
  if (!built() && !batch_input_shape())
    throw ValueError("Cannot load weights into model '" + name() + "' before it is built: call build(input_shape) "
                     "or call it on a batch of data first, so that its weights exist");
  if (!built()) ensure_built(*batch_input_shape());
  if (has_extension(path, ".keras") || saving::is_zip_file(path))
    return saving::load_weights_from_archive(*this, path, options.skip_mismatch);
  if (has_extension(path, ".json")) return saving::load_sharded_weights(*this, path, options.skip_mismatch);
  hdf5::File file = hdf5::File::open(path);
  hdf5::Group root = file.root();
  if (saving::is_object_path_layout(root)) {
    saving::load_object_path_weights(root, *this, options.skip_mismatch);
    if (root.has("optimizer") && compiled()) saving::load_object_path_optimizer(root, *this);
    return;
  }
  const hdf5::Group group = root.has("model_weights") ? root.open_group("model_weights") : std::move(root);
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
  return saving::reading_config("model_from_json", [&] { return as_model(Layer::deserialize(config), "the JSON text"); });
}

std::shared_ptr<Model> load_model(const std::string& path, LoadModelOptions options) {
  CustomObjectScope scope(options.custom_objects);
  // By name, then by content: tf.keras 2.10-2.12 wrote HDF5 under names ending in ".keras".
  if (saving::is_zip_file(path) || (has_extension(path, ".keras") && !looks_like_hdf5(path)))
    return saving::load_keras_archive(path, options.compile);
  if (!is_hdf5_name(path) && !looks_like_hdf5(path) && std::filesystem::exists(path))
    throw ValueError("Cannot load a model from " + path + ": kerascpp reads '.keras' archives (Keras 3, tf.keras "
                     "2.13+) and '.h5'/'.hdf5' files (Keras 2.x, Keras 3's legacy format); for TensorFlow.js "
                     "model.json use keras::models::load_tfjs");
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
  return saving::reading_config(path, [&] {
    auto model = as_model(Layer::deserialize(config), path);
    if (!model->built() && model->batch_input_shape()) model->ensure_built(*model->batch_input_shape());
    // A functional model's layers are matched by name: the names come from the same file, while the order of
    // model.layers may differ from the writer's (Keras sorts a graph's layers by depth).
    saving::load_weights_from_group(root.open_group("model_weights"), model->layers(), model->class_name() == "Functional",
                                    false);
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
  });
}

}  // namespace models
}  // namespace keras
