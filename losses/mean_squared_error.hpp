#pragma once
// keras.losses.MeanSquaredError: the mean over the last axis of (y_true - y_pred)^2.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of (y_true - y_pred)^2 over the last axis (keras.losses.mean_squared_error).
/// A (N,) target against (N, 1) predictions (or the reverse) is reshaped to match, as in Keras.
Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred);

struct MeanSquaredErrorOptions {
  KERAS_LOSS_OPTIONS("mean_squared_error")
};

class MeanSquaredError : public Loss {
 public:
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return mean_squared_error(y_true, y_pred);
  }
  std::string class_name() const override { return "MeanSquaredError"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
