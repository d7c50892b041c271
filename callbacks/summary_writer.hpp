#pragma once
// keras::summary: TensorBoard logs from a custom loop, as tf.summary.create_file_writer / tf.summary.scalar.
//   auto writer = keras::summary::create_file_writer("logs/run1");
//   writer->scalar("loss", loss, step);
//   writer->flush();
#include <memory>
#include <string>
#include <vector>

#include "callbacks/event_file.hpp"
#include "keras/tensor.hpp"

namespace keras::summary {

class SummaryWriter {
 public:
  /// Opens a new event file in `logdir` (created when missing).
  explicit SummaryWriter(const std::string& logdir);
  ~SummaryWriter();
  /// A scalar series point (shown in TensorBoard's Scalars tab).
  void scalar(const std::string& tag, double value, std::int64_t step);
  /// A histogram of the values (TensorBoard's Histograms and Distributions tabs).
  void histogram(const std::string& tag, const std::vector<double>& values, std::int64_t step, int buckets = 30);
  void histogram(const std::string& tag, const Tensor& values, std::int64_t step, int buckets = 30);
  /// Pushes everything written so far to disk.
  void flush();
  const std::string& logdir() const { return logdir_; }
  /// The event file's path.
  const std::string& path() const { return file_.path(); }

 private:
  std::string logdir_;
  struct Lock;  // a std::mutex (kept out of this header)
  std::unique_ptr<Lock> lock_;
  EventFile file_;
};

/// tf.summary.create_file_writer(logdir).
std::shared_ptr<SummaryWriter> create_file_writer(const std::string& logdir);

}  // namespace keras::summary
