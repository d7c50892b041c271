#pragma once
// The callback an Estimator trains with (tf's basic session hooks): counts the global step, saves
// checkpoints every save_checkpoints_steps / _secs and when training ends, writes the loss summary every
// save_summary_steps and logs loss and global_step/sec every log_step_count_steps.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "callbacks/callback.hpp"
#include "keras/estimator/run_config.hpp"

namespace keras {
class Variable;
namespace summary {
class SummaryWriter;
}
}  // namespace keras

namespace keras::estimator::detail {

class TrainingHook : public callbacks::Callback {
 public:
  /// `save(step)` writes a checkpoint; `writer` may be null (a replica other than the chief).
  TrainingHook(const RunConfig& config, std::shared_ptr<Variable> global_step, std::function<void(std::int64_t)> save,
               std::shared_ptr<summary::SummaryWriter> writer);
  void on_train_begin(Logs& logs) override;
  /// Resets the model's metrics, so that the step's logs hold that step's loss (as tf logs it).
  void on_train_batch_begin(std::int64_t batch, Logs& logs) override;
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_train_end(Logs& logs) override;
  std::int64_t step() const;

 private:
  using Clock = std::chrono::steady_clock;
  RunConfig config_;
  std::shared_ptr<Variable> global_step_;
  std::function<void(std::int64_t)> save_;
  std::shared_ptr<summary::SummaryWriter> writer_;
  std::int64_t last_saved_ = -1, last_logged_step_ = 0;
  Clock::time_point last_save_time_{}, last_log_time_{};
  double last_loss_ = 0;
  bool trained_ = false;
};

}  // namespace keras::estimator::detail
