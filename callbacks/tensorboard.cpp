#include "callbacks/tensorboard.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>

#include "callbacks/summary_image.hpp"
#include "callbacks/summary_trace.hpp"
#include "keras/model.hpp"
#include "keras/sequential.hpp"
#include "optimizers/optimizer.hpp"
#include "keras/saving/hdf5_format.hpp"

namespace keras::callbacks {

TensorBoard::TensorBoard(std::string log_dir, TensorBoardOptions options) : log_dir_(std::move(log_dir)), o_(std::move(options)) {
  if (o_.histogram_freq < 0) throw ValueError("TensorBoard's histogram_freq must be >= 0, got " + std::to_string(o_.histogram_freq));
  every_ = o_.update_freq.batches("TensorBoard's update_freq");
  const auto& p = o_.profile_batch;
  if (p.start < 0 || p.stop < p.start)
    throw ValueError("TensorBoard's profile_batch must be a non-negative integer or a pair {start, stop} of positive "
                     "integers with start <= stop, found {" + std::to_string(p.start) + ", " + std::to_string(p.stop) + "}");
}

summary::SummaryWriter& TensorBoard::train_writer() {
  if (!train_) train_ = summary::create_file_writer((std::filesystem::path(log_dir_) / "train").string());
  return *train_;
}

summary::SummaryWriter& TensorBoard::validation_writer() {
  if (!val_) val_ = summary::create_file_writer((std::filesystem::path(log_dir_) / "validation").string());
  return *val_;
}

void TensorBoard::on_train_begin(Logs&) {
  train_step_ = 0;
  global_batch_ = 0;
  train_writer();
  graph_pending_ = o_.write_graph;
  // As Keras: the conceptual graph of a functional or Sequential model (a subclassed one has no config graph).
  if (o_.write_graph && (model().graph() || dynamic_cast<const Sequential*>(&model()))) {
    try {
      train_writer().keras_model("keras", model().to_json(), 0);
    } catch (const std::exception& e) {
      std::cerr << "WARNING: TensorBoard: the model's config could not be written as JSON, so the Graphs tab has no "
                   "conceptual graph: " << e.what() << "\n";
    }
  }
}

// Keras counts batches from 1 over the whole fit; the profile covers batches start..stop.
void TensorBoard::on_train_batch_begin(std::int64_t, Logs&) {
  ++global_batch_;
  const bool profile = o_.profile_batch.stop > 0 && global_batch_ == o_.profile_batch.start;
  const bool graph = graph_pending_ && global_batch_ == 1;
  if ((profile || graph) && !tracing_) {
    if (summary::tracing()) {  // somebody else's trace: leave it alone
      graph_pending_ = false;
      return;
    }
    summary::trace_on({.graph = true, .profiler = profile});
    tracing_ = true;
    profiling_ = profile;
  }
}

void TensorBoard::on_epoch_begin(int, Logs&) {
  epoch_start_ = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  epoch_first_step_ = train_step_;
}

// As Keras: scalars of the batches whose global index is a multiple of update_freq, at that index.
void TensorBoard::on_train_batch_end(std::int64_t, Logs& logs) {
  if (graph_pending_ && tracing_) {
    train_writer().graph(summary::encode_graph_def(summary::traced_graph()), 0);
    graph_pending_ = false;
    if (!profiling_) {
      summary::trace_off();
      tracing_ = false;
    }
  }
  if (every_ > 0 && train_step_ % every_ == 0)
    for (const auto& [k, v] : logs) train_writer().scalar("batch_" + k, v, train_step_);
  ++train_step_;
  if (profiling_ && global_batch_ >= o_.profile_batch.stop) stop_trace();
}

// As Keras's _stop_trace: the graph as the run-metadata summary "batch_<stop>" at step stop, the profile in log_dir.
void TensorBoard::stop_trace() {
  summary::write_trace(&train_writer(), "batch_" + std::to_string(o_.profile_batch.stop), o_.profile_batch.stop, false,
                       log_dir_);
  summary::trace_off();
  tracing_ = profiling_ = false;
}

void TensorBoard::on_epoch_end(int epoch, Logs& logs) {
  auto& train = train_writer();
  for (const auto& [k, v] : logs)
    if (k.rfind("val_", 0) != 0) train.scalar("epoch_" + k, v, epoch);
  const auto& opt = model().optimizer();
  if (opt.learning_rate_schedule()) train.scalar("epoch_learning_rate", opt.learning_rate(), epoch);
  if (o_.write_steps_per_second) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count() - epoch_start_;
    train.scalar("epoch_steps_per_second", seconds > 0 ? double(train_step_ - epoch_first_step_) / seconds : 0.0, epoch);
  }
  if (o_.histogram_freq > 0 && epoch % o_.histogram_freq == 0) log_weights(epoch);
  train.flush();
  bool any_val = false;
  for (const auto& [k, v] : logs)
    if (k.rfind("val_", 0) == 0) {
      validation_writer().scalar("epoch_" + k.substr(4), v, epoch);
      any_val = true;
    }
  if (any_val) validation_writer().flush();
}

void TensorBoard::on_test_end(Logs& logs) {
  if (!model().compiled()) return;
  const auto step = model().optimizer().iterations();
  for (const auto& [k, v] : logs) validation_writer().scalar("evaluation_" + k + "_vs_iterations", v, step);
  validation_writer().flush();
}

void TensorBoard::on_train_end(Logs&) {
  if (profiling_) stop_trace();
  if (tracing_) summary::trace_off();
  tracing_ = graph_pending_ = false;
  if (train_) train_->flush();
  if (val_) val_->flush();
}

// Keras's tags: the weight name with ':' as '_', then "/histogram" ("dense/kernel_0/histogram").
void TensorBoard::log_weights(int epoch) {
  for (const auto& layer : model().layers())
    for (const auto& [name, var] : saving::named_weights(*layer)) {
      std::string tag = name;
      for (char& c : tag)
        if (c == ':') c = '_';
      train_writer().histogram(tag + "/histogram", var->value(), epoch);
      if (o_.write_images)
        if (const Tensor image = summary::weight_as_image(var->value()); image.defined())
          train_writer().image(tag + "/image", image, epoch);
    }
}

}  // namespace keras::callbacks
