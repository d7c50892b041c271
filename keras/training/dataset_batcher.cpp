#include "keras/training/dataset_batcher.hpp"

#include <iostream>

namespace keras {

Batch batch_from_element(const data::Element& e) {
  auto tensor = [](const data::Element& c, const char* role) -> Tensor {
    if (!c.is_leaf())
      throw ValueError(std::string("A Dataset for fit/evaluate/predict yields (x, y, sample_weight) with a tensor as ") + role +
                       "; nested or named inputs need a model with several inputs, which fit does not take yet");
    return c.leaf().tensor();
  };
  if (e.is_leaf()) return {e.leaf().tensor(), Tensor(), Tensor()};
  if (e.is_dict() || e.size() == 0 || e.size() > 3)
    throw ValueError("A Dataset for fit/evaluate/predict must yield x, (x, y) or (x, y, sample_weight) batches; got an "
                     "element with " + std::to_string(e.size()) + (e.is_dict() ? " named components" : " items"));
  Batch b{tensor(e[0], "x"), Tensor(), Tensor()};
  if (e.size() > 1) b.y = tensor(e[1], "y");
  if (e.size() > 2) b.sample_weight = tensor(e[2], "sample_weight");
  return b;
}

DatasetBatcher::DatasetBatcher(data::Dataset dataset, std::optional<std::int64_t> steps, const char* what, bool carry_over)
    : dataset_(std::move(dataset)), fixed_steps_(steps), carry_over_(carry_over) {
  const auto card = dataset_.cardinality();
  if (steps && *steps <= 0) throw ValueError(std::string(what) + " must be positive, got " + std::to_string(*steps));
  if (!steps && card == data::INFINITE_CARDINALITY)
    throw ValueError(std::string("When passing an infinitely repeating dataset, you must specify the `") + what +
                     "` argument");
  steps_ = steps ? *steps : (card >= 0 ? card : 0);
}

void DatasetBatcher::start_epoch() {
  taken_ = 0;
  if (!fixed_steps_ || !carry_over_ || !it_) it_.emplace(dataset_.make_iterator());
}

std::optional<Batch> DatasetBatcher::next() {
  if (fixed_steps_ && taken_ >= *fixed_steps_) return std::nullopt;
  if (!it_) start_epoch();
  auto e = it_->get_next_as_optional();
  if (!e) {
    if (fixed_steps_ && carry_over_) {
      ran_out_ = true;
      std::cerr << "WARNING: Your input ran out of data; interrupting training. Make sure that your dataset can generate "
                   "at least `steps_per_epoch * epochs` batches (use repeat()).\n";
    }
    it_.reset();
    return std::nullopt;
  }
  ++taken_;
  return batch_from_element(*e);
}

}  // namespace keras
