#include "keras/trainers/array_data_adapter.hpp"

#include <algorithm>
#include <numeric>

#include "keras/ops/shape.hpp"
#include "keras/utils/random.hpp"

namespace keras {

ArrayDataAdapter::ArrayDataAdapter(Batch data, std::int64_t batch_size, bool shuffle)
    : data_(std::move(data)), batch_size_(batch_size), shuffle_(shuffle) {
  if (batch_size_ <= 0) throw ValueError("batch_size must be a positive integer, got " + std::to_string(batch_size_));
  const auto& x = data_.x;
  if (x.empty() || !x[0].defined() || x[0].ndim() == 0)
    throw ValueError("Input data must have a batch dimension, got " + (x.empty() ? std::string("nothing") : x[0].str()));
  samples_ = x[0].dim(0);
  steps_ = (samples_ + batch_size_ - 1) / batch_size_;
}

void ArrayDataAdapter::start_epoch() {
  cursor_ = 0;
  if (!shuffle_) return;
  order_.resize(static_cast<std::size_t>(samples_));
  std::iota(order_.begin(), order_.end(), 0);
  std::shuffle(order_.begin(), order_.end(), utils::random_generator());
}

std::optional<Batch> ArrayDataAdapter::next() {
  if (cursor_ >= steps_) return std::nullopt;
  const std::int64_t step = cursor_++;
  const auto begin = step * batch_size_;
  const auto end = std::min(begin + batch_size_, samples_);
  const bool gather = shuffle_ && !order_.empty();
  std::vector<std::int64_t> idx;
  if (gather) idx.assign(order_.begin() + begin, order_.begin() + end);
  auto rows = [&](const std::vector<Tensor>& ts) {
    std::vector<Tensor> out;
    for (const auto& t : ts) out.push_back(!t.defined() ? Tensor() : gather ? ops::take_rows(t, idx) : t.slice(begin, end));
    return out;
  };
  return Batch{rows(data_.x), rows(data_.y), rows(data_.sample_weight)};
}

}  // namespace keras
