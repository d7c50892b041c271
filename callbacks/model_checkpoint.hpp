#pragma once
// ModelCheckpoint: saves the model (or its weights) every epoch or every N batches, optionally only
// when a monitored value improves (keras.callbacks.ModelCheckpoint).
#include <cstdint>
#include <optional>
#include <string>

#include "callbacks/callback.hpp"
#include "callbacks/frequency.hpp"

namespace keras::callbacks {

struct ModelCheckpointOptions {
  std::string monitor = "val_loss";
  int verbose = 0;
  bool save_best_only = false;    // keep only improvements of `monitor`
  bool save_weights_only = false;  // save_weights instead of save
  std::string mode = "auto";       // auto: max when the name contains "acc" or starts with "fmeasure"
  /// "epoch", or a number of batches.
  Frequency save_freq = "epoch";
  std::optional<double> initial_value_threshold{};  // the best value to beat at the start
};

class ModelCheckpoint : public Callback {
 public:
  /// filepath may hold {epoch:02d}, {batch} and any log key with a Python format spec: "ckpt-{val_loss:.3f}.h5".
  explicit ModelCheckpoint(std::string filepath, ModelCheckpointOptions options = {});

  void on_epoch_begin(int epoch, Logs& /*logs*/) override { current_epoch_ = epoch; }
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;

  double best() const { return best_; }
  bool maximizes() const { return maximize_; }
  /// The path the last save wrote (empty before the first).
  const std::string& last_saved() const { return last_saved_; }

 private:
  bool should_save_on_batch(std::int64_t batch);
  void save_model(int epoch, std::optional<std::int64_t> batch, const Logs& logs);
  std::string filepath_;
  ModelCheckpointOptions o_;
  bool per_epoch_ = true;
  std::int64_t every_ = 0;
  bool maximize_ = false;
  double best_ = 0.0;
  int current_epoch_ = 0;
  std::int64_t batches_since_save_ = 0, last_batch_seen_ = 0;
  std::string last_saved_{};
};

}  // namespace keras::callbacks
