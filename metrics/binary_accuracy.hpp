#pragma once
// keras.metrics.BinaryAccuracy: how often predictions above a threshold match binary targets.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample mean over the last axis of (y_pred > threshold) == y_true, as float32
/// (keras.metrics.binary_accuracy). A (N,) target against (N, 1) predictions is reshaped to match.
Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, float threshold = 0.5f);

struct BinaryAccuracyOptions {
  std::string name = "binary_accuracy";
  double threshold = 0.5;
};

class BinaryAccuracy : public MeanMetricWrapper {
 public:
  explicit BinaryAccuracy(BinaryAccuracyOptions options = {});
  /// {"name", "dtype", "threshold"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
  double threshold() const { return options_.threshold; }

 private:
  BinaryAccuracyOptions options_;
};

}  // namespace keras::metrics
