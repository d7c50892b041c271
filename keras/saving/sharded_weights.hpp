#pragma once
// Keras 3's sharded weights (`model.save_weights("m.weights.json", max_shard_size=...)`): a JSON manifest
// {"metadata": {"total_size"}, "weight_map": {"/layers/dense/vars": "m_00000.weights.h5", ...}} beside
// files `<base>_00000.weights.h5`, `<base>_00001.weights.h5`, ... each in the object-path layout.
#include <string>

namespace keras {
class Model;
}

namespace keras::saving {

/// Writes the shards and then the manifest at `path` (each through a temporary file). A group of
/// variables is never split across shards; a group larger than max_shard_size_gb gets a shard of its own.
void save_sharded_weights(const Model& model, const std::string& path, double max_shard_size_gb);

/// Reads weights through a manifest written by Keras 3 or save_sharded_weights.
void load_sharded_weights(const Model& model, const std::string& path, bool skip_mismatch);

}  // namespace keras::saving
