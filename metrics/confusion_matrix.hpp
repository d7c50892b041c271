#pragma once
// Weighted confusion-matrix counts at a list of thresholds: the engine behind TruePositives...,
// Precision, Recall, AUC and the sensitivity/specificity metrics (Keras's
// update_confusion_matrix_variables, including its bucketed path for evenly spaced thresholds).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::metrics {

/// The score that top_k filtering gives to predictions outside the top k (Keras's NEG_INF); also
/// Precision's and Recall's default threshold when top_k is set.
inline constexpr double kNegInf = -1e10;

/// tp, fp, tn, fn per threshold, and per label for multi-label AUC: element [t * num_labels + l].
struct ConfusionCounts {
  std::int64_t num_thresholds = 0;
  std::int64_t num_labels = 1;
  std::vector<double> tp{}, fp{}, tn{}, fn{};

  void resize(std::int64_t thresholds, std::int64_t labels = 1);
  void reset();
  bool empty() const { return tp.empty(); }
  /// tp, fp, tn, fn one after the other (Metric::state()), and back.
  std::vector<double> state() const;
  void set_state(const std::vector<double>& state, const std::string& metric_name);
};

/// How one batch is counted.
struct ConfusionUpdate {
  /// A prediction is positive at threshold t when y_pred > t (compared in float32).
  std::vector<double> thresholds{};
  /// Thresholds spaced evenly over [0, 1] (endpoints possibly nudged by ±1e-7): predictions are
  /// clipped to [0, 1] and bucketed as ceil(p * (T - 1)) - 1, as Keras's optimized path does.
  bool evenly_distributed = false;
  /// Only the k largest predictions of each row (last axis) can be positive.
  std::optional<int> top_k = std::nullopt;
  /// Only this column of the last axis is counted.
  std::optional<int> class_id = std::nullopt;
  /// y_pred is (N, L) and each label is counted separately (counts.num_labels == L).
  bool multi_label = false;
  /// One non-negative weight per label (last axis), multiplying the sample weights; empty for none.
  std::vector<double> label_weights{};
};

/// Adds one batch to `counts` (which must already be sized for the thresholds and labels). y_true is
/// cast to bool (non-zero is positive) and must match y_pred's shape (a trailing axis of 1 may differ);
/// sample_weight broadcasts to y_pred. Errors name `metric_name`.
void update_confusion_counts(ConfusionCounts& counts, const Tensor& y_true, const Tensor& y_pred,
                             const Tensor& sample_weight, const ConfusionUpdate& how, const std::string& metric_name);

/// Keras's is_evenly_distributed_thresholds: at least 3 values, within 1e-7 (+1e-5 relative) of
/// i / (n - 1).
bool is_evenly_distributed(const std::vector<double>& thresholds);

/// a / b, or 0 where b is 0 (tf.math.divide_no_nan).
inline double divide_no_nan(double a, double b) { return b == 0 ? 0.0 : a / b; }

}  // namespace keras::metrics
