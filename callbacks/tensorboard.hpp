#pragma once
// TensorBoard: writes training logs that TensorBoard shows (keras.callbacks.TensorBoard):
// log_dir/train and log_dir/validation each hold an events.out.tfevents.* file with "epoch_<metric>"
// scalars per epoch, "batch_<metric>" every update_freq batches when update_freq is a number,
// "evaluation_<metric>_vs_iterations" after each evaluation, weight histograms every histogram_freq
// epochs, and "epoch_learning_rate" when the optimizer follows a LearningRateSchedule (a callback's
// "lr" log entry, e.g. from ReduceLROnPlateau, appears as "epoch_lr").
// write_graph (on by default, as Keras): the model's config as the Graphs tab's conceptual graph ("keras" under the
// graph_keras_model plugin, step 0) when training begins, and the graph of the first training batch's ops and
// gradients in the event's graph_def field after it. write_images: with each weight histogram, the weight as images
// (tag "<weight>/image"). profile_batch = {start, stop}: the training batches start..stop (counted from 1 over the
// whole fit) are profiled into log_dir/plugins/profile/<run>/<host>.trace.json.gz, and their graph written as
// "batch_<stop>" (summary_trace.hpp). Not written: embeddings.
#include <cstdint>
#include <memory>
#include <string>

#include "callbacks/callback.hpp"
#include "callbacks/frequency.hpp"
#include "callbacks/summary_writer.hpp"

namespace keras::callbacks {

/// TensorBoard's profile_batch: one batch (`5`), a range (`{10, 20}`), or none (0).
struct ProfileBatch {
  std::int64_t start = 0, stop = 0;
  ProfileBatch() = default;
  ProfileBatch(std::int64_t batch) : start(batch), stop(batch) {}  // NOLINT: as Keras's int
  ProfileBatch(std::int64_t first, std::int64_t last) : start(first), stop(last) {}
};

struct TensorBoardOptions {
  int histogram_freq = 0;  // epochs between weight histograms (0: none)
  bool write_graph = true;
  bool write_images = false;  // weights as images, with the histograms
  bool write_steps_per_second = false;
  /// "epoch", "batch" (= 1), or a number of batches between batch-level scalars.
  Frequency update_freq = "epoch";
  ProfileBatch profile_batch = 0;
};

class TensorBoard : public Callback {
 public:
  explicit TensorBoard(std::string log_dir = "logs", TensorBoardOptions options = {});

  void on_train_begin(Logs& logs) override;
  void on_train_end(Logs& logs) override;
  void on_epoch_begin(int epoch, Logs& logs) override;
  void on_epoch_end(int epoch, Logs& logs) override;
  void on_train_batch_begin(std::int64_t batch, Logs& logs) override;
  void on_train_batch_end(std::int64_t batch, Logs& logs) override;
  void on_test_end(Logs& logs) override;

  /// The writers of log_dir/train and log_dir/validation (created on first use).
  summary::SummaryWriter& train_writer();
  summary::SummaryWriter& validation_writer();

 private:
  void log_weights(int epoch);
  void stop_trace();
  std::string log_dir_;
  TensorBoardOptions o_;
  std::int64_t every_ = 0;  // batches between batch-level scalars, 0 for epoch only
  std::shared_ptr<summary::SummaryWriter> train_, val_;
  std::int64_t train_step_ = 0, epoch_first_step_ = 0;
  double epoch_start_ = 0.0;  // seconds on the steady clock
  std::int64_t global_batch_ = 0;  // training batches begun in this fit, from 1
  bool graph_pending_ = false;     // the first batch's graph is to be written
  bool tracing_ = false;           // this callback's trace is on
  bool profiling_ = false;         // ... with the profiler
};

}  // namespace keras::callbacks
