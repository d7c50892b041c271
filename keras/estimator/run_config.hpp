#pragma once
// RunConfig (tf.estimator.RunConfig): where an Estimator keeps its checkpoints and summaries, how often it
// writes them, and how it trains (random seed, data-parallel strategy).
#include <cstdint>
#include <optional>
#include <string>

namespace keras {
class ReplicaSync;
}

namespace keras::estimator {

struct RunConfig {
  /// Checkpoints, the `checkpoint` state file and TensorBoard event files go here (unset: the
  /// Estimator's model_dir, else a new temporary directory, as tf).
  std::string model_dir{};
  /// Seeds keras's random generator before the model is built (weights, shuffles, dropout).
  std::optional<std::uint64_t> tf_random_seed{};
  /// Write the training loss summary every this many steps.
  std::int64_t save_summary_steps = 100;
  /// Save a checkpoint every this many steps, or every this many seconds (not both). Neither set: every
  /// 600 seconds, as tf. A checkpoint is always saved when train() ends.
  std::optional<std::int64_t> save_checkpoints_steps{};
  std::optional<double> save_checkpoints_secs{};
  /// Checkpoints kept (older ones are deleted); 0 keeps all.
  int keep_checkpoint_max = 5;
  /// Log the loss and global_step/sec every this many steps (on stderr and as a summary).
  std::int64_t log_step_count_steps = 100;
  /// A data-parallel strategy (keras::distribute::MultiWorkerMirroredStrategy or MirroredStrategy; not owned)
  /// that train() runs under, as fit does inside the strategy's scope. Only the chief writes files.
  ReplicaSync* train_distribute = nullptr;
};

}  // namespace keras::estimator
