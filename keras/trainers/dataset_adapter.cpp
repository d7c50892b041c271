#include "keras/trainers/dataset_adapter.hpp"

#include <iostream>
#include <map>

#include "data/options.hpp"

namespace keras {

namespace {

Tensor tensor_of(const data::Element& c, const std::string& role) {
  if (!c.is_leaf())
    throw ValueError("A Dataset for fit/evaluate/predict yields " + role + " nested more than one level deep; give each "
                     "model input or output as one tensor in a tuple or in named components");
  return c.leaf().tensor();
}

// x, y or sample_weight: one tensor, a tuple (in the order of the model's inputs or outputs) or named
// components (matched to the input or output names).
Arrays arrays_of(const data::Element& e, const std::string& role) {
  if (e.is_leaf()) return tensor_of(e, role);
  if (e.is_dict()) {
    std::map<std::string, Tensor> by_name;
    for (std::size_t i = 0; i < e.size(); ++i) by_name[e.keys()[i]] = tensor_of(e.children()[i], role + "['" + e.keys()[i] + "']");
    return by_name;
  }
  std::vector<Tensor> list;
  for (std::size_t i = 0; i < e.size(); ++i) list.push_back(tensor_of(e[i], role + "[" + std::to_string(i) + "]"));
  return list;
}

// As Keras's unpack_x_y_sample_weight: a tuple of 1-3 items is (x, y, sample_weight); anything else is x.
Batch unpack(const data::Element& e, const DatasetAdapter::Resolver& resolve) {
  if (!e.is_tuple()) return resolve(arrays_of(e, "x"), {}, {});
  if (e.size() == 0 || e.size() > 3)
    throw ValueError("A Dataset for fit/evaluate/predict must yield x, (x, y) or (x, y, sample_weight) batches; got a "
                     "tuple of " + std::to_string(e.size()) + " items. Several inputs go in a nested tuple: ((x1, x2), y)");
  return resolve(arrays_of(e[0], "x"), e.size() > 1 ? arrays_of(e[1], "y") : Arrays(),
                 e.size() > 2 ? arrays_of(e[2], "sample_weight") : Arrays());
}

}  // namespace

DatasetAdapter::DatasetAdapter(data::Dataset dataset, Resolver resolve, std::optional<std::int64_t> steps, const char* what,
                               bool carry_over)
    : dataset_(std::move(dataset)), resolve_(std::move(resolve)), fixed_steps_(steps), carry_over_(carry_over) {
  const auto card = dataset_.cardinality();
  if (steps && *steps <= 0) throw ValueError(std::string(what) + " must be positive, got " + std::to_string(*steps));
  if (!steps && card == data::INFINITE_CARDINALITY)
    throw ValueError(std::string("When passing an infinitely repeating dataset, you must specify the `") + what +
                     "` argument");
  steps_ = steps ? *steps : (card >= 0 ? card : 0);
}

void DatasetAdapter::start_epoch() {
  taken_ = 0;
  if (!fixed_steps_ || !carry_over_ || !it_) it_.emplace(dataset_.make_iterator());
}

std::optional<Batch> DatasetAdapter::next() {
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
  return unpack(*e, resolve_);
}

data::AutoShardPolicy DatasetAdapter::auto_shard_policy() const {
  return dataset_.options().experimental_distribute.auto_shard_policy.value_or(data::AutoShardPolicy::AUTO);
}

}  // namespace keras
