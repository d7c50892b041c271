#include "callbacks/model_checkpoint.hpp"

#include <filesystem>
#include <iostream>
#include <limits>

#include <fmt/format.h>

#include "callbacks/format_path.hpp"
#include "callbacks/monitor.hpp"
#include "keras/model.hpp"

namespace keras::callbacks {

ModelCheckpoint::ModelCheckpoint(std::string filepath, ModelCheckpointOptions options)
    : filepath_(std::move(filepath)), o_(std::move(options)) {
  if (filepath_.empty()) throw ValueError("ModelCheckpoint needs a file path, e.g. \"ckpt-{epoch:02d}.h5\"");
  if (const std::int64_t every = o_.save_freq.batches("ModelCheckpoint's save_freq")) {
    every_ = every;
    per_epoch_ = false;
  }
  const std::string mode = checked_mode(o_.mode, "ModelCheckpoint");
  // tf.keras 2.x: in auto mode, names containing "acc" (or starting with "fmeasure") are maximized.
  maximize_ = mode == "max" || (mode == "auto" && (o_.monitor.find("acc") != std::string::npos ||
                                                   o_.monitor.rfind("fmeasure", 0) == 0));
  best_ = o_.initial_value_threshold.value_or(maximize_ ? -std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::infinity());
}

bool ModelCheckpoint::should_save_on_batch(std::int64_t batch) {
  if (per_epoch_) return false;
  // Batches count across epochs: a batch index not above the last one means a new epoch began.
  batches_since_save_ += batch <= last_batch_seen_ ? batch + 1 : batch - last_batch_seen_;
  last_batch_seen_ = batch;
  if (batches_since_save_ < every_) return false;
  batches_since_save_ = 0;
  return true;
}

void ModelCheckpoint::on_train_batch_end(std::int64_t batch, Logs& logs) {
  if (should_save_on_batch(batch)) save_model(current_epoch_, batch, logs);
}

void ModelCheckpoint::on_epoch_end(int epoch, Logs& logs) {
  if (per_epoch_) save_model(epoch, std::nullopt, logs);
}

void ModelCheckpoint::save_model(int epoch, std::optional<std::int64_t> batch, const Logs& logs) {
  std::map<std::string, std::int64_t> ints{{"epoch", epoch + 1}};
  if (batch) ints["batch"] = *batch + 1;
  const std::string path = format_path(filepath_, ints, logs);
  const auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  if (o_.save_best_only) {
    if (!logs.contains(o_.monitor)) {
      std::cerr << "WARNING: Can save best model only with " << o_.monitor << " available, skipping.\n";
      return;
    }
    const double current = logs.at(o_.monitor);
    if (!(maximize_ ? current > best_ : current < best_)) {
      if (o_.verbose > 0) std::cout << fmt::format("\nEpoch {}: {} did not improve from {:.5f}\n", epoch + 1, o_.monitor, best_);
      return;
    }
    if (o_.verbose > 0)
      std::cout << fmt::format("\nEpoch {}: {} improved from {:.5f} to {:.5f}, saving model to {}\n", epoch + 1,
                               o_.monitor, best_, current, path);
    best_ = current;
  } else if (o_.verbose > 0) {
    std::cout << fmt::format("\nEpoch {}: saving model to {}\n", epoch + 1, path);
  }
  // Both write a temporary file and rename it: a crash never leaves a half-written checkpoint.
  if (o_.save_weights_only) model().save_weights(path);
  else model().save(path);
  last_saved_ = path;
}

}  // namespace keras::callbacks
