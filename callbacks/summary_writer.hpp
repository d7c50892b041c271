#pragma once
// keras::summary: TensorBoard logs from a custom loop, as tf.summary.create_file_writer / tf.summary.scalar.
//   auto writer = keras::summary::create_file_writer("logs/run1");
//   writer->scalar("loss", loss, step);
//   writer->flush();
// or, as tf.summary with a default writer: { auto scope = writer->as_default(); summary::image("x", images, step); }
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
  /// Images [k, h, w, c] (c = 1 to 4; floats in [0, 1] or uint8) as PNGs, the first `max_outputs` of them
  /// (tf.summary.image: TensorBoard's Images tab).
  void image(const std::string& tag, const Tensor& images, std::int64_t step, int max_outputs = 3);
  /// A tensor summary: `tensor` a serialized TensorProto, read by the plugin `plugin` names.
  void tensor_summary(const std::string& tag, const PluginData& plugin, const std::string& tensor, std::int64_t step);
  /// A serialized GraphDef in the event's graph_def field (tf.summary.graph: the Graphs tab's "Default" tag).
  void graph(const std::string& graph_def, std::int64_t step = 0);
  /// The model's JSON config under the graph_keras_model plugin (the Graphs tab's conceptual graph), as
  /// tf.keras's keras_model_summary writes it.
  void keras_model(const std::string& tag, const std::string& model_json, std::int64_t step = 0);

  /// Makes this writer the thread's default (tf.summary's `with writer.as_default():`) until the returned scope
  /// ends, which flushes it and puts back the previous default.
  class DefaultScope {
   public:
    explicit DefaultScope(SummaryWriter* writer);
    ~DefaultScope();
    DefaultScope(const DefaultScope&) = delete;
    DefaultScope& operator=(const DefaultScope&) = delete;

   private:
    SummaryWriter* writer_;
    SummaryWriter* previous_;
  };
  [[nodiscard]] DefaultScope as_default() { return DefaultScope(this); }

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

/// The thread's default writer (set by SummaryWriter::as_default), or null.
SummaryWriter* default_writer();
/// tf.summary.scalar / histogram / image to the default writer: false (and nothing written) without one.
bool scalar(const std::string& name, double value, std::int64_t step);
bool histogram(const std::string& name, const Tensor& values, std::int64_t step, int buckets = 30);
bool image(const std::string& name, const Tensor& images, std::int64_t step, int max_outputs = 3);

}  // namespace keras::summary
