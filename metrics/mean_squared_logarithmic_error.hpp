#pragma once
// keras.metrics.MeanSquaredLogarithmicError: the running mean of the per-sample MSLE.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample mean((log(max(y_pred, 1e-7) + 1) - log(max(y_true, 1e-7) + 1))^2) over the last axis
/// (keras.metrics.mean_squared_logarithmic_error, "msle").
Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred);

struct MeanSquaredLogarithmicErrorOptions {
  std::string name = "mean_squared_logarithmic_error";
};

/// Averages mean_squared_logarithmic_error over samples. Registered as "msle" and "MSLE" too.
class MeanSquaredLogarithmicError : public MeanMetricWrapper {
 public:
  explicit MeanSquaredLogarithmicError(MeanSquaredLogarithmicErrorOptions options = {})
      : MeanMetricWrapper(mean_squared_logarithmic_error, options.name, "MeanSquaredLogarithmicError") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
