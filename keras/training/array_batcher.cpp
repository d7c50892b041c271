#include "keras/training/array_batcher.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

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

void check_same_samples(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight,
                        const std::string& model) {
  if (x.size() == 1 && y.size() == 1 && sample_weight.size() <= 1 && x[0].defined() && y[0].defined())
    return check_same_samples(x[0], y[0], sample_weight.empty() ? Tensor() : sample_weight[0]);
  std::string sizes;
  std::int64_t n = -1;
  bool mismatch = false;
  auto visit = [&](const std::vector<Tensor>& ts, const char* role) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
      if (!ts[i].defined()) continue;
      if (ts[i].ndim() == 0)
        throw ValueError(fmt::format("Model '{}': {}[{}] is a scalar; every array needs a batch dimension", model, role, i));
      sizes += fmt::format("{}{}[{}]: {}", sizes.empty() ? "" : ", ", role, i, shape_str(ts[i].shape()));
      if (n >= 0 && ts[i].dim(0) != n) mismatch = true;
      n = ts[i].dim(0);
    }
  };
  visit(x, "x");
  visit(y, "y");
  visit(sample_weight, "sample_weight");
  if (n < 0) throw ValueError(fmt::format("Model '{}' received no input arrays", model));
  if (mismatch)
    throw ValueError(fmt::format("Data cardinality is ambiguous for model '{}': {}. Make sure all arrays contain the same "
                                 "number of samples",
                                 model, sizes));
}

ArrayBatcher::ArrayBatcher(std::vector<Tensor> x, std::vector<Tensor> y, std::vector<Tensor> sample_weight,
                           std::int64_t batch_size, bool shuffle)
    : x_(std::move(x)), y_(std::move(y)), sample_weight_(std::move(sample_weight)), batch_size_(batch_size), shuffle_(shuffle) {
  if (batch_size_ <= 0) throw ValueError("batch_size must be a positive integer, got " + std::to_string(batch_size_));
  if (x_.empty() || !x_[0].defined() || x_[0].ndim() == 0)
    throw ValueError("Input data must have a batch dimension, got " + (x_.empty() ? std::string("nothing") : x_[0].str()));
  samples_ = x_[0].dim(0);
  steps_ = (samples_ + batch_size_ - 1) / batch_size_;
}

void ArrayBatcher::start_epoch() {
  cursor_ = 0;
  if (!shuffle_) return;
  order_.resize(static_cast<std::size_t>(samples_));
  std::iota(order_.begin(), order_.end(), 0);
  std::shuffle(order_.begin(), order_.end(), utils::random_generator());
}

std::optional<Batch> ArrayBatcher::next() {
  if (cursor_ >= steps_) return std::nullopt;
  return batch(cursor_++);
}

Batch ArrayBatcher::batch(std::int64_t step) const {
  const auto begin = step * batch_size_;
  const auto end = std::min(begin + batch_size_, samples_);
  const bool gather = shuffle_ && !order_.empty();
  std::vector<std::int64_t> idx;
  if (gather) idx.assign(order_.begin() + begin, order_.begin() + end);
  auto rows = [&](const std::vector<Tensor>& ts) -> Arrays {
    if (ts.empty()) return {};
    std::vector<Tensor> out;
    for (const auto& t : ts) out.push_back(!t.defined() ? Tensor() : gather ? ops::take_rows(t, idx) : t.slice(begin, end));
    return out;
  };
  Arrays weights = rows(sample_weight_);
  if (sample_weight_.size() == 1) weights = weights.list()[0];  // one array for every output, as given
  return {rows(x_), rows(y_), weights};
}

}  // namespace keras
