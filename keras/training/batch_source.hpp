#pragma once
// Where the training loops get their batches: in-memory arrays (ArrayBatcher) or a Dataset
// (DatasetBatcher). fit, evaluate and predict run one loop over either.
#include <cstdint>
#include <optional>

#include "keras/tensor.hpp"
#include "keras/training/structure.hpp"

namespace keras {

/// One batch: x, y and sample_weight as the data gives them (one array, a list, or a map by name).
struct Batch {
  Arrays x, y, sample_weight;
};

class BatchSource {
 public:
  virtual ~BatchSource() = default;
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
};

}  // namespace keras
