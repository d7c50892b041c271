#pragma once
// keras.losses.CTC (Keras 3): connectionist temporal classification, the loss of sequence labelling
// without alignments (speech, handwriting).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample CTC negative log-likelihood, as keras.losses.ctc: y_true [batch, max_length] integer labels
/// padded with 0, which is also the blank class (a label's length is its count of non-zero entries, taken
/// from the start); y_pred [batch, time, classes] logits (log_softmax is applied inside); every time step
/// counts. A label that no alignment of the time steps can produce gives +inf and a zero gradient.
Tensor ctc(const Tensor& y_true, const Tensor& y_pred);

struct CTCOptions {
  KERAS_LOSS_OPTIONS("ctc")
};

class CTC : public Loss {
 public:
  explicit CTC(CTCOptions options = {}) : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return ctc(y_true, y_pred); }
  std::string class_name() const override { return "CTC"; }
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);

 private:
  CTCOptions options_;
};

}  // namespace keras::losses
