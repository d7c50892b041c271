#include "keras/training/array_batcher.hpp"

#include <algorithm>
#include <numeric>

#include "keras/ops/shape.hpp"
#include "keras/utils/random.hpp"

namespace keras {

void check_same_samples(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  auto describe = [](const Tensor& t) { return t.defined() ? shape_str(t.shape()) : std::string("undefined"); };
  if (!x.defined() || !y.defined() || x.ndim() == 0 || y.ndim() == 0 || x.dim(0) != y.dim(0))
    throw ValueError("Data cardinality is ambiguous: x has shape " + describe(x) + " and y has shape " + describe(y) +
                     "; make sure all arrays contain the same number of samples");
  if (sample_weight.defined() && (sample_weight.ndim() == 0 || sample_weight.dim(0) != x.dim(0)))
    throw ValueError("sample_weight of shape " + describe(sample_weight) + " does not match x of shape " + describe(x) +
                     "; give one weight per sample");
}

ArrayBatcher::ArrayBatcher(Tensor x, Tensor y, Tensor sample_weight, std::int64_t batch_size, bool shuffle)
    : x_(std::move(x)), y_(std::move(y)), sample_weight_(std::move(sample_weight)), batch_size_(batch_size), shuffle_(shuffle) {
  if (batch_size_ <= 0) throw ValueError("batch_size must be a positive integer, got " + std::to_string(batch_size_));
  if (!x_.defined() || x_.ndim() == 0) throw ValueError("Input data must have a batch dimension, got " + x_.str());
  steps_ = (x_.dim(0) + batch_size_ - 1) / batch_size_;
}

void ArrayBatcher::start_epoch() {
  cursor_ = 0;
  if (!shuffle_) return;
  order_.resize(static_cast<std::size_t>(x_.dim(0)));
  std::iota(order_.begin(), order_.end(), 0);
  std::shuffle(order_.begin(), order_.end(), utils::random_generator());
}

std::optional<Batch> ArrayBatcher::next() {
  if (cursor_ >= steps_) return std::nullopt;
  return batch(cursor_++);
}

Batch ArrayBatcher::batch(std::int64_t step) const {
  const auto begin = step * batch_size_;
  const auto end = std::min(begin + batch_size_, x_.dim(0));
  if (!shuffle_ || order_.empty()) {
    auto view = [&](const Tensor& t) { return t.defined() ? t.slice(begin, end) : Tensor(); };
    return {view(x_), view(y_), view(sample_weight_)};
  }
  std::vector<std::int64_t> idx(order_.begin() + begin, order_.begin() + end);
  auto gather = [&](const Tensor& t) { return t.defined() ? ops::take_rows(t, idx) : Tensor(); };
  return {gather(x_), gather(y_), gather(sample_weight_)};
}

}  // namespace keras
