#include "keras/distribute/gradient_buckets.hpp"

#include <algorithm>

#include "keras/distribute/mpi_runtime.hpp"
#include "keras/variable.hpp"

namespace keras::distribute {

GradientBuckets::GradientBuckets(MPI_Comm comm, std::size_t bucket_bytes, bool overlap, Timeline& timeline)
    : comm_(comm), bucket_bytes_(std::max<std::size_t>(bucket_bytes, sizeof(float))), timeline_(timeline) {
  if (overlap) thread_ = std::thread([this] { communicate(); });
}

GradientBuckets::~GradientBuckets() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void GradientBuckets::layout(const std::vector<std::shared_ptr<Variable>>& vars) {
  bool same = vars.size() == vars_.size();
  for (std::size_t i = 0; same && i < vars.size(); ++i) same = vars[i].get() == vars_[i] && vars[i]->shape() == shapes_[i];
  if (same) return;
  vars_.clear();
  shapes_.clear();
  for (const auto& v : vars) {
    vars_.push_back(v.get());
    shapes_.push_back(v->shape());
  }
  buckets_.clear();
  bucket_of_.assign(vars.size(), 0);
  offset_of_.assign(vars.size(), 0);
  const std::size_t capacity = bucket_bytes_ / sizeof(float);
  std::size_t filled = 0;
  for (std::size_t k = vars.size(); k-- > 0;) {  // the last variables' gradients are final first
    const auto n = static_cast<std::size_t>(vars[k]->value().size());
    if (buckets_.empty() || (filled > 0 && filled + n > capacity)) {
      buckets_.emplace_back();
      filled = 0;
    }
    bucket_of_[k] = buckets_.size() - 1;
    offset_of_[k] = filled;
    filled += n;
    buckets_.back().expected += 1;
    buckets_.back().size = filled;
  }
  for (auto& b : buckets_) b.data = Tensor::empty({static_cast<std::int64_t>(b.size)});
}

void GradientBuckets::begin(const std::vector<std::shared_ptr<Variable>>& vars, float scale) {
  std::lock_guard lock(mutex_);  // the thread is idle between steps: this only publishes the new state
  layout(vars);
  scale_ = scale;
  given_.assign(vars.size(), false);
  for (auto& b : buckets_) {
    b.packed = 0;
    b.result = MPI_SUCCESS;
  }
  handed_ = reduced_ = 0;
}

void GradientBuckets::ready(std::size_t index, const Tensor& gradient) {
  if (index >= given_.size() || given_[index]) return;
  const auto n = static_cast<std::size_t>(gradient.size());
  if (gradient.dtype() != DType::float32 || gradient.size() != vars_[index]->value().size())
    throw ValueError("rank " + std::to_string(mpi::rank()) + ": the gradient of variable '" + vars_[index]->name() +
                     "' is " + gradient.str() + ", but the variable has shape " + shape_str(shapes_[index]));
  Bucket& b = buckets_[bucket_of_[index]];
  float* dst = b.data.data<float>() + offset_of_[index];
  const float* src = gradient.data<float>();
  const float scale = scale_;
  for (std::size_t i = 0; i < n; ++i) dst[i] = src[i] * scale;
  given_[index] = true;
  ++b.packed;
  hand_over_full_buckets();
}

void GradientBuckets::reduce(Bucket& b) {
  b.started = timeline_.now();
  b.result = MPI_Allreduce(MPI_IN_PLACE, b.data.raw_data(), static_cast<int>(b.size), MPI_FLOAT, MPI_SUM, comm_);
  b.ended = timeline_.now();
}

// The full buckets that follow the last one handed over, in index order, go to the communication thread.
void GradientBuckets::hand_over_full_buckets() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    const std::size_t before = handed_;
    while (handed_ < buckets_.size() && buckets_[handed_].packed == buckets_[handed_].expected) ++handed_;
    if (handed_ == before) return;
  }
  changed_.notify_all();
}

void GradientBuckets::communicate() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || reduced_ < handed_; });
    if (reduced_ >= handed_) return;  // stopping, and nothing left
    Bucket& b = buckets_[reduced_];
    lock.unlock();
    reduce(b);
    lock.lock();
    ++reduced_;
    changed_.notify_all();
  }
}

std::vector<Tensor> GradientBuckets::finish() {
  for (std::size_t k = 0; k < given_.size(); ++k)
    if (!given_[k]) {
      Bucket& b = buckets_[bucket_of_[k]];
      std::fill_n(b.data.data<float>() + offset_of_[k], static_cast<std::size_t>(vars_[k]->value().size()), 0.0f);
      given_[k] = true;
      ++b.packed;
    }
  if (thread_.joinable()) {
    hand_over_full_buckets();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return reduced_ == buckets_.size(); });
  } else {
    for (auto& b : buckets_) reduce(b);
  }
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    timeline_.span("allreduce bucket " + std::to_string(i), "communication", buckets_[i].started, buckets_[i].ended);
    mpi::check(buckets_[i].result, "MPI_Allreduce of a gradient bucket");
  }
  std::vector<Tensor> grads;
  grads.reserve(vars_.size());
  for (std::size_t k = 0; k < vars_.size(); ++k) {
    const auto begin = static_cast<std::int64_t>(offset_of_[k]);
    grads.push_back(buckets_[bucket_of_[k]].data.slice(begin, begin + vars_[k]->value().size()).reshape(shapes_[k]));
  }
  return grads;
}

}  // namespace keras::distribute
