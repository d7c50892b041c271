#pragma once
// keras.metrics.LogCoshError: the running mean of the per-sample log-cosh error.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample mean(log(cosh(y_pred - y_true))) over the last axis, computed stably as
/// x + softplus(-2x) - log(2) (keras.metrics.logcosh).
Tensor logcosh(const Tensor& y_true, const Tensor& y_pred);

struct LogCoshErrorOptions {
  std::string name = "logcosh";
};

/// Averages logcosh over samples. Registered as "logcosh" and "log_cosh" too.
class LogCoshError : public MeanMetricWrapper {
 public:
  explicit LogCoshError(LogCoshErrorOptions options = {}) : MeanMetricWrapper(logcosh, options.name, "LogCoshError") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
