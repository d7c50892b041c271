#include "callbacks/summary_writer.hpp"

#include <mutex>

#include "callbacks/summary_image.hpp"

namespace keras::summary {

struct SummaryWriter::Lock {
  std::mutex mutex;
};

SummaryWriter::SummaryWriter(const std::string& logdir) : logdir_(logdir), lock_(std::make_unique<Lock>()), file_(logdir) {}

SummaryWriter::~SummaryWriter() = default;

void SummaryWriter::scalar(const std::string& tag, double value, std::int64_t step) {
  std::lock_guard lock(lock_->mutex);
  file_.write_record(encode_scalar_event(wall_time_now(), step, tag, static_cast<float>(value)));
}

void SummaryWriter::histogram(const std::string& tag, const std::vector<double>& values, std::int64_t step, int buckets) {
  std::lock_guard lock(lock_->mutex);
  file_.write_record(encode_histogram_event(wall_time_now(), step, tag, make_histogram(values, buckets)));
}

void SummaryWriter::histogram(const std::string& tag, const Tensor& values, std::int64_t step, int buckets) {
  const Tensor f = values.astype(DType::float32);
  const float* p = f.data<float>();
  histogram(tag, std::vector<double>(p, p + f.size()), step, buckets);
}

void SummaryWriter::image(const std::string& tag, const Tensor& images, std::int64_t step, int max_outputs) {
  const auto strings = image_summary_strings(images, max_outputs);
  // The images plugin's metadata: an empty ImagePluginData (version 0); a blob sequence.
  tensor_summary(tag, {.name = "images", .data_class = 3},
                 encode_string_tensor(strings, {static_cast<std::int64_t>(strings.size())}), step);
}

void SummaryWriter::tensor_summary(const std::string& tag, const PluginData& plugin, const std::string& tensor,
                                   std::int64_t step) {
  std::lock_guard lock(lock_->mutex);
  file_.write_record(encode_tensor_summary_event(wall_time_now(), step, tag, plugin, tensor));
}

void SummaryWriter::graph(const std::string& graph_def, std::int64_t step) {
  std::lock_guard lock(lock_->mutex);
  file_.write_record(encode_graph_event(wall_time_now(), step, graph_def));
}

void SummaryWriter::keras_model(const std::string& tag, const std::string& model_json, std::int64_t step) {
  tensor_summary(tag, {.name = "graph_keras_model", .content = "1"}, encode_string_tensor({model_json}, {}), step);
}

namespace {
thread_local SummaryWriter* thread_default = nullptr;
}

SummaryWriter::DefaultScope::DefaultScope(SummaryWriter* writer) : writer_(writer), previous_(thread_default) {
  thread_default = writer;
}

SummaryWriter::DefaultScope::~DefaultScope() {
  thread_default = previous_;
  try {
    if (writer_) writer_->flush();
  } catch (...) {  // a destructor does not throw; the next write reports the error
  }
}

SummaryWriter* default_writer() { return thread_default; }

bool scalar(const std::string& name, double value, std::int64_t step) {
  if (!thread_default) return false;
  thread_default->scalar(name, value, step);
  return true;
}

bool histogram(const std::string& name, const Tensor& values, std::int64_t step, int buckets) {
  if (!thread_default) return false;
  thread_default->histogram(name, values, step, buckets);
  return true;
}

bool image(const std::string& name, const Tensor& images, std::int64_t step, int max_outputs) {
  if (!thread_default) return false;
  thread_default->image(name, images, step, max_outputs);
  return true;
}

void SummaryWriter::flush() {
  std::lock_guard lock(lock_->mutex);
  file_.flush();
}

std::shared_ptr<SummaryWriter> create_file_writer(const std::string& logdir) {
  return std::make_shared<SummaryWriter>(logdir);
}

}  // namespace keras::summary
