#pragma once
// keras.losses.LogCosh: the mean over the last axis of log(cosh(y_pred - y_true)).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of log(cosh(x)), x = y_pred - y_true, over the last axis, computed as Keras does as
/// x + softplus(-2x) - log(2), which cannot overflow (keras.losses.log_cosh, alias logcosh).
Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred);
inline Tensor logcosh(const Tensor& y_true, const Tensor& y_pred) { return log_cosh(y_true, y_pred); }

struct LogCoshOptions {
  KERAS_LOSS_OPTIONS("log_cosh")
};

class LogCosh : public Loss {
 public:
  explicit LogCosh(LogCoshOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return log_cosh(y_true, y_pred); }
  std::string class_name() const override { return "LogCosh"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
