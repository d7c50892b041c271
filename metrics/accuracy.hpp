#pragma once
// keras.metrics.Accuracy: how often predictions equal targets exactly.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// Element-wise y_true == y_pred as float32 (keras.metrics.accuracy), shaped like y_pred. When y_true is
/// an integer tensor and y_pred float32, y_pred is first truncated to an integer, as tf.cast does.
/// A (N,) target against (N, 1) predictions (or the reverse) is reshaped to match; other shapes must be equal.
Tensor accuracy(const Tensor& y_true, const Tensor& y_pred);

struct AccuracyOptions {
  std::string name = "accuracy";
};

/// The weighted mean of accuracy(y_true, y_pred): for class ids or values, not probabilities (for those
/// use BinaryAccuracy or CategoricalAccuracy).
class Accuracy : public MeanMetricWrapper {
 public:
  explicit Accuracy(AccuracyOptions options = {}) : MeanMetricWrapper(accuracy, options.name, "Accuracy") {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
