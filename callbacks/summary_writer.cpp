#include "callbacks/summary_writer.hpp"

#include <mutex>

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

void SummaryWriter::flush() {
  std::lock_guard lock(lock_->mutex);
  file_.flush();
}

std::shared_ptr<SummaryWriter> create_file_writer(const std::string& logdir) {
  return std::make_shared<SummaryWriter>(logdir);
}

}  // namespace keras::summary
