#pragma once
// keras.metrics.TopKCategoricalAccuracy and SparseTopKCategoricalAccuracy: how often the target class is
// among the k highest predictions.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// 1.0 where the integer class id y_true is among the k largest values of its row of y_pred, else 0.0
/// (keras.metrics.sparse_top_k_categorical_accuracy, tf.math.in_top_k): a class whose score ties the
/// k-th largest counts as in the top k; out-of-range ids and non-finite scores count as misses.
/// y_pred is (..., num_classes); the result has y_true's shape (y_true may keep a trailing axis of 1).
Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int k = 5);

/// The same with one-hot targets: the target class is argmax(y_true, -1)
/// (keras.metrics.top_k_categorical_accuracy). One value per row.
Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int k = 5);

struct TopKCategoricalAccuracyOptions {
  int k = 5;
  std::string name = "top_k_categorical_accuracy";
};

class TopKCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit TopKCategoricalAccuracy(TopKCategoricalAccuracyOptions options = {});
  /// {"name", "dtype", "k"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
  int k() const { return options_.k; }

 private:
  TopKCategoricalAccuracyOptions options_;
};

struct SparseTopKCategoricalAccuracyOptions {
  int k = 5;
  std::string name = "sparse_top_k_categorical_accuracy";
};

class SparseTopKCategoricalAccuracy : public MeanMetricWrapper {
 public:
  explicit SparseTopKCategoricalAccuracy(SparseTopKCategoricalAccuracyOptions options = {});
  /// {"name", "dtype", "k"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
  int k() const { return options_.k; }

 private:
  SparseTopKCategoricalAccuracyOptions options_;
};

}  // namespace keras::metrics
