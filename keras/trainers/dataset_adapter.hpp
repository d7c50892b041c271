#pragma once
// Batches for fit/evaluate/predict from a Dataset whose elements are batches: x, (x,), (x, y) or
// (x, y, sample_weight), where each of x, y and sample_weight is a tensor, a tuple (model inputs/outputs in
// order) or named components (matched to the input/output names).
#include <functional>
#include <optional>

#include "data/dataset.hpp"
#include "keras/trainers/data_adapter.hpp"
#include "keras/trainers/structure.hpp"

namespace keras {

class DatasetAdapter : public DataAdapter {
 public:
  /// Matches one element's x, y and sample_weight to the model's inputs and outputs.
  using Resolver = std::function<Batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight)>;
  /// With steps (Keras's steps_per_epoch / validation_steps / steps), each epoch takes at most that many
  /// batches, and with carry_over (fit's training data) the iterator carries on across epochs; without
  /// steps, each epoch is one full pass. `what` names the steps argument in error messages.
  DatasetAdapter(data::Dataset dataset, Resolver resolve, std::optional<std::int64_t> steps, const char* what,
                 bool carry_over);
  std::int64_t steps() const override { return steps_; }
  void start_epoch() override;
  std::optional<Batch> next() override;
  bool ran_out() const override { return ran_out_; }
  /// The Dataset's options().experimental_distribute.auto_shard_policy (AUTO when unset).
  data::AutoShardPolicy auto_shard_policy() const override;

 private:
  data::Dataset dataset_;
  Resolver resolve_;
  std::optional<std::int64_t> fixed_steps_;
  std::int64_t steps_ = 0, taken_ = 0;
  std::optional<data::Iterator> it_;
  bool carry_over_, ran_out_ = false;
};

}  // namespace keras
