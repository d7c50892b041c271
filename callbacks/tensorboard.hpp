#pragma once
// TensorBoard: writes training logs that TensorBoard shows (keras.callbacks.TensorBoard):
// log_dir/train and log_dir/validation each hold an events.out.tfevents.* file with "epoch_<metric>"
// scalars per epoch, "batch_<metric>" every update_freq batches when update_freq is a number,
// "evaluation_<metric>_vs_iterations" after each evaluation, weight histograms every histogram_freq
// epochs, and "epoch_learning_rate" when the optimizer follows a LearningRateSchedule (a callback's
// "lr" log entry, e.g. from ReduceLROnPlateau, appears as "epoch_lr").
// Not written: the graph (write_graph), images, profiles and embeddings.
#include <cstdint>
#include <memory>
#include <string>

#include "callbacks/callback.hpp"
#include "callbacks/frequency.hpp"
#include "callbacks/summary_writer.hpp"

namespace keras::callbacks {

struct TensorBoardOptions {
  int histogram_freq = 0;  // epochs between weight histograms (0: none)
  bool write_steps_per_second = false;
  /// "epoch", "batch" (= 1), or a number of batches between batch-level scalars.
  Frequency update_freq = "epoch";
};

class TensorBoard : public Callback {
 public:
  explicit TensorBoard(std::string log_dir = "logs", TensorBoardOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_train_end(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_test_end(Logs& logs) override;

  /// The writers of log_dir/train and log_dir/validation (created on first use).
  summary::SummaryWriter& train_writer();
  summary::SummaryWriter& validation_writer();

 private:
  void log_weights(int epoch);
  std::string log_dir_;
  TensorBoardOptions o_;
  std::int64_t every_ = 0;  // batches between batch-level scalars, 0 for epoch only
  std::shared_ptr<summary::SummaryWriter> train_, val_;
  std::int64_t train_step_ = 0, epoch_first_step_ = 0;
  double epoch_start_ = 0.0;  // seconds on the steady clock
};

}  // namespace keras::callbacks
