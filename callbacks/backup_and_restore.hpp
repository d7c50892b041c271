#pragma once
// BackupAndRestore: fault-tolerant training (keras.callbacks.BackupAndRestore). It backs up the weights,
// the optimizer state, the learning rate, the random generator and the training position (epoch, and
// step with a batch save_freq) into backup_dir; when fit() is called again with the same backup_dir
// after the process died, it restores them and fit() continues from there. With a fixed seed and one
// thread the final weights equal those of an uninterrupted run. The backup is deleted when fit() ends.
#include <cstdint>
#include <string>

#include "callbacks/callback.hpp"
#include "callbacks/frequency.hpp"

namespace keras::callbacks {

struct BackupAndRestoreOptions {
  /// "epoch" (back up at each epoch's end), or a number of batches between backups.
  Frequency save_freq = "epoch";
  bool delete_checkpoint = true;  // delete the backup when training ends
};

class BackupAndRestore : public Callback {
 public:
  explicit BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_end(Logs& logs) override;

  /// The backup file inside backup_dir.
  std::string backup_path() const;
  /// Whether the last on_train_begin restored a backup (and where training resumed: epoch, step).
  bool restored() const { return restored_; }
  int restored_epoch() const { return restored_epoch_; }
  std::int64_t restored_step() const { return restored_step_; }

 private:
  void save(int epoch, std::int64_t step);
  void restore();
  std::string backup_dir_;
  BackupAndRestoreOptions o_;
  std::int64_t every_ = 0;  // 0: per epoch
  std::int64_t batches_since_save_ = 0;
  int current_epoch_ = 0;
  std::string rng_at_epoch_start_{}, rng_mid_epoch_{};
  bool restored_ = false;
  int restored_epoch_ = 0;
  std::int64_t restored_step_ = 0;
};

}  // namespace keras::callbacks
