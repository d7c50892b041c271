#pragma once
// keras.metrics.CategoricalAccuracy: how often the argmax of the predictions matches that of one-hot targets.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample argmax(y_true) == argmax(y_pred) over the last axis, as float32 (keras.metrics.categorical_accuracy).
Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);

struct CategoricalAccuracyOptions {
  std::string name = "categorical_accuracy";
};

class CategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit CategoricalAccuracy(CategoricalAccuracyOptions options = {})
      : MeanMetricWrapper(categorical_accuracy, options.name, "CategoricalAccuracy") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
