#pragma once
// keras.metrics.MeanAbsoluteError: the running mean of the per-sample mean absolute error.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct MeanAbsoluteErrorOptions {
  std::string name = "mean_absolute_error";
};

/// Averages keras::losses::mean_absolute_error over samples (weighted by sample_weight when given).
class MeanAbsoluteError : public MeanMetricWrapper {
 public:
  explicit MeanAbsoluteError(MeanAbsoluteErrorOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
