#pragma once
// The `.keras` archive Keras 3 writes by default (and tf.keras 2.13-2.15 wrote): a zip holding
// metadata.json, config.json (the model's description with its compile_config) and model.weights.h5
// (Keras 3's object-path layout, object_path_layout.hpp); assets/ where a layer keeps files.
#include <memory>
#include <string>

namespace keras {
class Model;
}

namespace keras::saving {

/// The Keras version recorded in the metadata.json of the archives kerascpp writes (whose layout is that version's).
inline constexpr const char* kKeras3Version = "3.10.0";

/// Writes `model` to `path` through a temporary file renamed over it when complete.
void save_keras_archive(const Model& model, const std::string& path, bool include_optimizer);

/// Reads a model from an archive (the caller holds the custom-object scope); with `compile`, compiles it
/// from compile_config and restores the optimizer's state.
std::shared_ptr<Model> load_keras_archive(const std::string& path, bool compile);

/// Reads only the weights of an archive into an existing model.
void load_weights_from_archive(Model& model, const std::string& path, bool skip_mismatch);

}  // namespace keras::saving
