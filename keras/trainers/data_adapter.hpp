#pragma once
// Where the trainer's loops get their batches (Keras 3's data adapters): in-memory arrays
// (ArrayDataAdapter, the one batcher) or a Dataset (DatasetAdapter). Either yields Batch values already
// matched to the model's inputs and outputs, so fit, evaluate and predict run one loop over both.
#include <cstdint>
#include <optional>

#include "data/auto_shard_policy.hpp"
#include "keras/trainers/batch.hpp"

namespace keras {

class DataAdapter {
 public:
  virtual ~DataAdapter() = default;
  /// Batches per epoch, or 0 when unknown until the data ends.
  virtual std::int64_t steps() const = 0;
  /// Samples per epoch, or 0 when unknown (a Dataset).
  virtual std::int64_t samples() const { return 0; }
  /// Prepares the next pass (a new sample order, a fresh iterator, ...).
  virtual void start_epoch() = 0;
  /// The next batch of the current epoch, or nullopt when the epoch is done.
  virtual std::optional<Batch> next() = 0;
  /// True when the data ended before the steps asked for (fit then stops, as Keras does).
  virtual bool ran_out() const { return false; }
  /// How a distribution strategy splits this data among replicas (arrays: by data).
  virtual data::AutoShardPolicy auto_shard_policy() const { return data::AutoShardPolicy::DATA; }
};

}  // namespace keras
