#pragma once
// Splits in-memory arrays (one per model input, output and sample weight) into batches, reshuffling the
// sample order each epoch when asked.
#include <vector>

#include "keras/tensor.hpp"
#include "keras/trainers/data_adapter.hpp"

namespace keras {

class ArrayDataAdapter : public DataAdapter {
 public:
  /// The arrays of `data` (y and sample_weight may be empty: predict) all hold the same number of samples.
  /// batch_size must be positive.
  ArrayDataAdapter(Batch data, std::int64_t batch_size, bool shuffle);
  std::int64_t steps() const override { return steps_; }
  std::int64_t samples() const override { return samples_; }
  /// Draws a new sample order (when shuffling) for the next pass.
  void start_epoch() override;
  /// The batch after the previous one in this pass: views when not shuffling, gathered copies otherwise.
  std::optional<Batch> next() override;

 private:
  Batch data_;
  std::int64_t batch_size_, steps_, samples_, cursor_ = 0;
  bool shuffle_;
  std::vector<std::int64_t> order_;
};

}  // namespace keras
