#include "keras/saving/keras_archive.hpp"

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <unistd.h>

#include "keras/activations.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"
#include "keras/saving/config_errors.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/keras3_config.hpp"
#include "keras/saving/layer_assets.hpp"
#include "keras/saving/object_path_layout.hpp"
#include "keras/saving/zip_archive.hpp"

namespace keras::saving {
namespace {

constexpr const char* kConfig = "config.json";
constexpr const char* kMetadata = "metadata.json";
constexpr const char* kWeights = "model.weights.h5";

// A file removed when it goes out of scope.
class TempFile {
 public:
  explicit TempFile(const std::string& hint)
      : path_((std::filesystem::temp_directory_path() /
               ("kerascpp-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++) + "-" + hint))
                  .string()) {}
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  static std::atomic<int>& counter() {
    static std::atomic<int> n{0};
    return n;
  }
  std::string path_;
};

std::string now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  localtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d@%H:%M:%S", &tm);
  return buffer;
}

json parse_entry(const ZipReader& zip, const std::string& name) {
  try {
    return json::parse(zip.read(name));
  } catch (const json::exception& e) {
    throw IOError("The " + name + " in " + zip.path() + " is not valid JSON: " + e.what());
  }
}

std::shared_ptr<Model> as_model(const std::shared_ptr<Layer>& layer, const std::string& path) {
  auto model = std::dynamic_pointer_cast<Model>(layer);
  if (!model) throw ValueError("The config.json in " + path + " describes a " + layer->class_name() + " layer, not a model");
  return model;
}

// Builds a model whose config did not build it (no Input): from build_config, as Keras 3 does.
void build_from_config(Model& model, const json& config) {
  if (model.built()) return;
  if (model.batch_input_shape()) {
    model.ensure_built(*model.batch_input_shape());
    return;
  }
  const json shape = config.contains("build_config") && config["build_config"].is_object()
                         ? config["build_config"].value("input_shape", json())
                         : json();
  if (!shape.is_array() || shape.empty() || !(shape[0].is_null() || shape[0].is_number())) return;
  Shape s;
  for (const auto& d : shape) s.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
  model.ensure_built(s);
}

void require_weights(const ZipReader& zip) {
  if (zip.has(kWeights)) return;
  if (zip.has("model.weights.npz"))
    throw IOError(zip.path() + " keeps its weights in model.weights.npz (Keras's npz weights format), which "
                  "kerascpp does not read; save it from Keras with the default weights_format='h5'");
  throw IOError(zip.path() + " has no " + kWeights + ": is it a .keras archive written by Keras?");
}

// As Keras 3: a compile_config that cannot be honoured (a loss or metric from another library) leaves the
// model uncompiled with a warning; saved metrics that are unknown are left out first.
bool compile_from_archive(Model& model, const json& compile_config, const std::string& path) {
  try {
    model.compile_from_config(compile_config);
    return true;
  } catch (const Error& e) {
    if (compile_config.contains("metrics") && !compile_config["metrics"].is_null()) {
      json without = compile_config;
      without["metrics"] = nullptr;
      try {
        model.compile_from_config(without);
        std::cerr << "Warning: " << path << ": the saved metrics were left out of compile() (" << e.what() << ")\n";
        return true;
      } catch (const Error&) {
      }
    }
    std::cerr << "Warning: " << path << ": the model is returned uncompiled, as its compile_config could not be "
              << "used (" << e.what() << "); give the missing objects in custom_objects, or compile it yourself\n";
    return false;
  }
}

}  // namespace

void save_keras_archive(const Model& model, const std::string& path, bool include_optimizer) {
  json config = keras3_model_config(model);
  activations::check_savable(config);
  if (include_optimizer && model.compiled()) config["compile_config"] = model.compile_config();
  const json metadata{{"keras_version", kKeras3Version}, {"date_saved", now()}};

  TempFile weights("model.weights.h5");
  write_atomically(weights.path(), [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    save_object_path_weights(root, model, include_optimizer);
    save_lookup_variables(root, model);
  });
  ZipWriter zip(path);
  zip.add(kMetadata, metadata.dump());
  zip.add(kConfig, config.dump());
  zip.add_file(kWeights, weights.path());
  for (auto& [name, content] : layer_assets(model)) zip.add(name, std::move(content));
  zip.commit();
}

std::shared_ptr<Model> load_keras_archive(const std::string& path, bool compile) {
  ZipReader zip(path);
  if (!zip.has(kConfig)) throw IOError(path + " has no config.json: is it a .keras archive written by Keras?");
  require_weights(zip);
  const json config = parse_entry(zip, kConfig);
  TempFile weights("model.weights.h5");
  zip.extract(kWeights, weights.path());
  return reading_config(path, [&] {
    auto model = as_model(Layer::deserialize(config), path);
    build_from_config(*model, config);
    hdf5::File file = hdf5::File::open(weights.path());
    const hdf5::Group root = file.root();
    load_object_path_weights(root, *model, false);
    load_layer_assets(zip, root, *model);
    const json cc = config.value("compile_config", json());
    if (compile && cc.is_object()) {
      if (compile_from_archive(*model, cc, path) && root.has("optimizer") && !load_object_path_optimizer(root, *model))
        std::cerr << "Warning: the optimizer state saved in " << path
                  << " does not match the model's optimizer; training resumes with a fresh optimizer.\n";
    }
    return model;
  });
}

void load_weights_from_archive(Model& model, const std::string& path, bool skip_mismatch) {
  ZipReader zip(path);
  require_weights(zip);
  TempFile weights("model.weights.h5");
  zip.extract(kWeights, weights.path());
  hdf5::File file = hdf5::File::open(weights.path());
  load_object_path_weights(file.root(), model, skip_mismatch);
}

}  // namespace keras::saving
