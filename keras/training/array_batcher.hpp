#pragma once
// Splits in-memory arrays into batches, reshuffling the sample order each epoch when asked.
#include <vector>

#include "keras/tensor.hpp"
#include "keras/training/batch_source.hpp"

namespace keras {

/// Throws unless x and y (and sample_weight, when defined) hold the same number of samples.
void check_same_samples(const Tensor& x, const Tensor& y, const Tensor& sample_weight = Tensor());

class ArrayBatcher : public BatchSource {
 public:
  /// y and sample_weight may be undefined (predict). batch_size must be positive.
  ArrayBatcher(Tensor x, Tensor y, Tensor sample_weight, std::int64_t batch_size, bool shuffle);
  std::int64_t steps() const override { return steps_; }
  std::int64_t samples() const override { return x_.dim(0); }
  /// Draws a new sample order (when shuffling) for the next pass.
  void start_epoch() override;
  /// The batch after the previous one in this pass.
  std::optional<Batch> next() override;
  /// Batch `step` of the current pass: a view when not shuffling, a gathered copy otherwise.
  Batch batch(std::int64_t step) const;

 private:
  Tensor x_, y_, sample_weight_;
  std::int64_t batch_size_, steps_, cursor_ = 0;
  bool shuffle_;
  std::vector<std::int64_t> order_;
};

}  // namespace keras
