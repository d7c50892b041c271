#pragma once
// keras.metrics.SparseCategoricalAccuracy: how often the argmax of the predictions equals integer class ids.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Per-sample y_true == argmax(y_pred, -1), as float32 (keras.metrics.sparse_categorical_accuracy).
/// y_true is shaped like y_pred without its last axis, or with a last axis of 1; any numeric dtype.
Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred);

struct SparseCategoricalAccuracyOptions {
  std::string name = "sparse_categorical_accuracy";
};

class SparseCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalAccuracy(SparseCategoricalAccuracyOptions options = {})
      : MeanMetricWrapper(sparse_categorical_accuracy, options.name, "SparseCategoricalAccuracy") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
