#pragma once
// TensorFlow.js layers format: a folder with `model.json` (the Keras topology plus a
// `weightsManifest`) and binary weight shards, as `tensorflowjs_converter` and `model.save` in
// TensorFlow.js write it; `tf.loadLayersModel` reads it.
#include <cstdint>
#include <memory>
#include <string>

#include "keras/model.hpp"
#include "keras/models.hpp"

namespace keras {

struct ExportTfjsOptions {
  /// Largest weight shard file, in bytes (the converter's default is 4 MiB).
  std::int64_t shard_size_bytes = 4 * 1024 * 1024;
};

/// Writes `directory`/model.json and `directory`/group1-shard<i>of<n>.bin. The folder is built beside
/// the target and swapped in whole: a failure leaves an existing folder as it was.
void export_tfjs(const Model& model, const std::string& directory, ExportTfjsOptions options = {});

namespace models {

/// A model from a TF.js layers-format `model.json` (ours, the converter's, or one TensorFlow.js
/// saved), with its weights (float32, int32, float16, or uint8/uint16-quantized shards).
std::shared_ptr<Model> load_tfjs(const std::string& model_json_path, LoadModelOptions options = {});

}  // namespace models
}  // namespace keras
