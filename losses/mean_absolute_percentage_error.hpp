#pragma once
// keras.losses.MeanAbsolutePercentageError: 100 * mean(|y_true - y_pred| / max(|y_true|, epsilon)).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample 100 * mean(|(y_true - y_pred) / max(|y_true|, 1e-7)|) over the last axis
/// (keras.losses.mean_absolute_percentage_error, alias mape).
Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred);
inline Tensor mape(const Tensor& y_true, const Tensor& y_pred) { return mean_absolute_percentage_error(y_true, y_pred); }

struct MeanAbsolutePercentageErrorOptions {
  KERAS_LOSS_OPTIONS("mean_absolute_percentage_error")
};

class MeanAbsolutePercentageError : public Loss {
 public:
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {})
      : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return mean_absolute_percentage_error(y_true, y_pred);
  }
  std::string class_name() const override { return "MeanAbsolutePercentageError"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
