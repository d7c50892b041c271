#pragma once
// keras.losses.MeanAbsoluteError: the mean over the last axis of |y_true - y_pred|.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of |y_true - y_pred| over the last axis (keras.losses.mean_absolute_error).
/// A (N,) target against (N, 1) predictions (or the reverse) is reshaped to match, as in Keras.
Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred);

struct MeanAbsoluteErrorOptions {
  KERAS_LOSS_OPTIONS("mean_absolute_error")
};

class MeanAbsoluteError : public Loss {
 public:
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return mean_absolute_error(y_true, y_pred);
  }
  std::string class_name() const override { return "MeanAbsoluteError"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
