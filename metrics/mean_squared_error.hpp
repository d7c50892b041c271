#pragma once
// keras.metrics.MeanSquaredError: the running mean of the per-sample mean squared error.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct MeanSquaredErrorOptions {
  std::string name = "mean_squared_error";
};

/// Averages keras::losses::mean_squared_error over samples (weighted by sample_weight when given).
class MeanSquaredError : public MeanMetricWrapper {
 public:
  explicit MeanSquaredError(MeanSquaredErrorOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
