#include "keras/distribute/gradient_buckets.hpp"

#include <algorithm>

#include "keras/distribute/mpi_runtime.hpp"
#include "keras/variable.hpp"

namespace keras::distribute {

GradientBuckets::GradientBuckets(MPI_Comm comm, std::size_t bucket_bytes, Timeline& timeline)
    : comm_(comm), bucket_bytes_(std::max<std::size_t>(bucket_bytes, sizeof(float))), timeline_(timeline) {}

GradientBuckets::~GradientBuckets() {
  for (auto& b : buckets_)  // only after an error: a finished step leaves no request behind
    if (b.request != MPI_REQUEST_NULL) MPI_Request_free(&b.request);
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
  layout(vars);
  scale_ = scale;
  given_.assign(vars.size(), false);
  for (auto& b : buckets_) b.packed = 0;
  next_to_start_ = 0;
}

void GradientBuckets::ready(std::size_t index, const Tensor& gradient) {
  if (index >= given_.size() || given_[index]) return;
  Bucket& b = buckets_[bucket_of_[index]];
  float* dst = b.data.data<float>() + offset_of_[index];
  const float* src = gradient.data<float>();
  const auto n = static_cast<std::size_t>(gradient.size());
  if (gradient.dtype() != DType::float32 || gradient.size() != vars_[index]->value().size())
    throw ValueError("rank " + std::to_string(mpi::rank()) + ": the gradient of variable '" + vars_[index]->name() +
                     "' is " + gradient.str() + ", but the variable has shape " + shape_str(shapes_[index]));
  const float scale = scale_;
  for (std::size_t i = 0; i < n; ++i) dst[i] = src[i] * scale;
  given_[index] = true;
  ++b.packed;
  start_ready_buckets(false);
  progress();
}

// In bucket order on every rank, as MPI requires. A bucket that fills during the backward pass is
// reduced without blocking, to overlap; one that fills after it (blocking) by the blocking allreduce,
// which Open MPI tunes better than the non-blocking one.
void GradientBuckets::start_ready_buckets(bool blocking) {
  while (next_to_start_ < buckets_.size() && buckets_[next_to_start_].packed == buckets_[next_to_start_].expected) {
    const std::size_t i = next_to_start_++;
    Bucket& b = buckets_[i];
    b.started_at = timeline_.now();
    if (blocking) {
      mpi::check(MPI_Allreduce(MPI_IN_PLACE, b.data.raw_data(), static_cast<int>(b.size), MPI_FLOAT, MPI_SUM, comm_),
                 "MPI_Allreduce of a gradient bucket");
      timeline_.span("allreduce bucket " + std::to_string(i), "communication", b.started_at, timeline_.now());
    } else {
      mpi::check(MPI_Iallreduce(MPI_IN_PLACE, b.data.raw_data(), static_cast<int>(b.size), MPI_FLOAT, MPI_SUM, comm_,
                                &b.request),
                 "MPI_Iallreduce of a gradient bucket");
    }
  }
}

// Open MPI advances non-blocking collectives only inside MPI calls: testing them between backward steps
// lets a bucket's reduction move on while the rest of the gradients are computed.
void GradientBuckets::progress() {
  for (std::size_t i = 0; i < next_to_start_; ++i) {
    Bucket& b = buckets_[i];
    if (b.request == MPI_REQUEST_NULL) continue;
    int done = 0;
    mpi::check(MPI_Test(&b.request, &done, MPI_STATUS_IGNORE), "MPI_Test of a gradient bucket");
    if (done) timeline_.span("allreduce bucket " + std::to_string(i), "communication", b.started_at, timeline_.now());
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
  start_ready_buckets(true);
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    Bucket& b = buckets_[i];
    if (b.request == MPI_REQUEST_NULL) continue;
    mpi::check(MPI_Wait(&b.request, MPI_STATUS_IGNORE), "MPI_Wait for a gradient bucket's allreduce");
    timeline_.span("allreduce bucket " + std::to_string(i), "communication", b.started_at, timeline_.now());
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
