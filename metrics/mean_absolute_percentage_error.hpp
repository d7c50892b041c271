#pragma once
// keras.metrics.MeanAbsolutePercentageError: the running mean of the per-sample MAPE.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample 100 * mean(|y_true - y_pred| / max(|y_true|, 1e-7)) over the last axis
/// (keras.metrics.mean_absolute_percentage_error, "mape").
Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred);

struct MeanAbsolutePercentageErrorOptions {
  std::string name = "mean_absolute_percentage_error";
};

/// Averages mean_absolute_percentage_error over samples. Registered as "mape" and "MAPE" too.
class MeanAbsolutePercentageError : public MeanMetricWrapper {
 public:
  explicit MeanAbsolutePercentageError(MeanAbsolutePercentageErrorOptions options = {})
      : MeanMetricWrapper(mean_absolute_percentage_error, options.name, "MeanAbsolutePercentageError") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
