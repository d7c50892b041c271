#pragma once
// keras.losses.MeanSquaredLogarithmicError: mean((log(y_pred + 1) - log(y_true + 1))^2), values floored at epsilon.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of (log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1))^2 over the last axis
/// (keras.losses.mean_squared_logarithmic_error, alias msle).
Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred);
inline Tensor msle(const Tensor& y_true, const Tensor& y_pred) { return mean_squared_logarithmic_error(y_true, y_pred); }

struct MeanSquaredLogarithmicErrorOptions {
  KERAS_LOSS_OPTIONS("mean_squared_logarithmic_error")
};

class MeanSquaredLogarithmicError : public Loss {
 public:
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {})
      : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return mean_squared_logarithmic_error(y_true, y_pred);
  }
  std::string class_name() const override { return "MeanSquaredLogarithmicError"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
