#pragma once
// Checkpoint and CheckpointManager: numbered snapshots of a model, its optimizer and extra variables,
// used as tf.train.Checkpoint / tf.train.CheckpointManager are in Keras code.
//
// Format (a noted choice): TensorFlow's checkpoints are its own tensor-bundle files, which need
// TensorFlow to read; ours are HDF5 files in Keras's model-file layout (`model_weights`,
// `optimizer_weights`) plus a `variables` group and a `save_counter` attribute, so h5py reads them.
// The directory's `checkpoint` file is the text file TensorFlow keeps beside its checkpoints.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/model.hpp"

namespace keras::train {

struct CheckpointOptions {
  /// The optimizer to save with the model; unset: the model's compiled optimizer, if any.
  optimizers::Optimizer* optimizer = nullptr;
  /// Further variables saved by name (e.g. a step counter, as `tf.train.Checkpoint(step=...)`).
  std::map<std::string, std::shared_ptr<Variable>> variables{};
};

class Checkpoint {
 public:
  explicit Checkpoint(Model& model, CheckpointOptions options = {});

  /// Writes "<file_prefix>-<n>.h5", n being the new save_counter(); returns the path.
  std::string save(const std::string& file_prefix);
  /// Writes exactly `path` (save_counter() unchanged). Atomic: a failure keeps the old file.
  void write(const std::string& path) const;
  /// Restores model weights, optimizer state, variables and save_counter from a file written by
  /// save/write. The model must be built. An unreadable or foreign file is an IOError naming it.
  void restore(const std::string& path);
  /// How many times save() has run (restored with the checkpoint).
  std::int64_t save_counter() const { return save_counter_; }

 private:
  Model* model_;
  CheckpointOptions options_;
  std::int64_t save_counter_ = 0;
  optimizers::Optimizer* optimizer() const;
  friend class CheckpointManager;
};

struct CheckpointManagerOptions {
  /// How many recent checkpoints to keep (older ones are deleted); unset keeps all.
  std::optional<int> max_to_keep = 5;
  std::string checkpoint_name = "ckpt";
};

/// Numbered checkpoints in one directory: save() writes `<dir>/ckpt-<n>.h5`, deletes those beyond
/// max_to_keep, and records them in `<dir>/checkpoint`. A new manager on an existing directory picks
/// up its checkpoints, so training can resume from latest_checkpoint().
class CheckpointManager {
 public:
  CheckpointManager(Checkpoint& checkpoint, std::string directory, CheckpointManagerOptions options = {});

  /// Saves a checkpoint numbered `checkpoint_number` (default: the checkpoint's next save counter).
  std::string save(std::optional<std::int64_t> checkpoint_number = {});
  /// The newest checkpoint's path, if any.
  std::optional<std::string> latest_checkpoint() const;
  /// The kept checkpoints, oldest first.
  const std::vector<std::string>& checkpoints() const { return checkpoints_; }
  /// Restores the latest checkpoint when there is one; returns its path (tf's restore_or_initialize).
  std::optional<std::string> restore_or_initialize();
  const std::string& directory() const { return directory_; }

 private:
  Checkpoint* checkpoint_;
  std::string directory_;
  CheckpointManagerOptions options_;
  std::vector<std::string> checkpoints_;
  void write_state() const;
};

/// The newest checkpoint recorded in `directory`'s `checkpoint` file (tf.train.latest_checkpoint).
std::optional<std::string> latest_checkpoint(const std::string& directory);

}  // namespace keras::train
