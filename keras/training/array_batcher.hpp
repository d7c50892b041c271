#pragma once
// Splits in-memory arrays into batches, reshuffling the sample order each epoch when asked.
#include <string>
#include <vector>

#include "keras/tensor.hpp"
#include "keras/training/batch_source.hpp"

namespace keras {

/// Throws unless x and y (and sample_weight, when defined) hold the same number of samples.
void check_same_samples(const Tensor& x, const Tensor& y, const Tensor& sample_weight = Tensor());
/// The same for several arrays per role (undefined ones are skipped); `model` names the model in the message.
void check_same_samples(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight,
                        const std::string& model);

class ArrayBatcher : public BatchSource {
 public:
  /// One array per model input, output and sample weight (y and sample_weight may be empty: predict).
  /// The batches keep the list form, in the same order. batch_size must be positive.
  ArrayBatcher(std::vector<Tensor> x, std::vector<Tensor> y, std::vector<Tensor> sample_weight, std::int64_t batch_size,
               bool shuffle);
  std::int64_t steps() const override { return steps_; }
  std::int64_t samples() const override { return samples_; }
  /// Draws a new sample order (when shuffling) for the next pass.
  void start_epoch() override;
  /// The batch after the previous one in this pass.
  std::optional<Batch> next() override;
  /// Batch `step` of the current pass: views when not shuffling, gathered copies otherwise.
  Batch batch(std::int64_t step) const;

 private:
  std::vector<Tensor> x_, y_, sample_weight_;
  std::int64_t batch_size_, steps_, samples_, cursor_ = 0;
  bool shuffle_;
  std::vector<std::int64_t> order_;
};

}  // namespace keras
