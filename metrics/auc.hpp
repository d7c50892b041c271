#pragma once
// keras.metrics.AUC: the area under the ROC or precision-recall curve, approximated from confusion
// counts at a fixed set of thresholds, with Keras's thresholds and Riemann sums.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/confusion_matrix.hpp"
#include "metrics/metric.hpp"

namespace keras::metrics {

struct AUCOptions {
  /// Thresholds used when `thresholds` is empty: 0 - 1e-7, then num_thresholds - 2 values evenly spaced
  /// in (0, 1), then 1 + 1e-7. Must be > 1.
  int num_thresholds = 200;
  /// "ROC" (true-positive rate against false-positive rate) or "PR" (precision against recall).
  std::string curve = "ROC";
  /// "interpolation" (trapezoids for ROC; for PR, Davis & Goadrich's interpolation of tp and fp),
  /// "minoring" (lower bound) or "majoring" (upper bound).
  std::string summation_method = "interpolation";
  std::string name = "auc";
  /// Explicit thresholds in [0, 1] (sorted; -1e-7 and 1 + 1e-7 are added); num_thresholds is then
  /// their count + 2.
  std::vector<double> thresholds{};
  /// Treat y_pred (N, L) as L separate labels and average their AUCs, instead of flattening.
  bool multi_label = false;
  /// The number of labels when multi_label is set; otherwise taken from the first batch.
  std::optional<int> num_labels = std::nullopt;
  /// Non-negative weights per label: the weights of the label AUCs' average when multi_label, else
  /// weights of each label's predictions in the flattened counts.
  std::vector<double> label_weights{};
  /// y_pred holds logits: a sigmoid is applied first.
  bool from_logits = false;
};

/// AUC as tf.keras 2.x computes it, exactly: evenly spaced thresholds use Keras's bucketing
/// (ceil(p * (T - 1)) - 1 in float32), other thresholds the comparison y_pred > threshold.
class AUC : public Metric {
 public:
  explicit AUC(AUCOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  void reset_state() override { counts_.reset(); }
  std::vector<double> state() const override { return counts_.state(); }
  void set_state(const std::vector<double>& state) override { counts_.set_state(state, name()); }
  std::string class_name() const override { return "AUC"; }
  /// {"name", "dtype", "num_thresholds", "curve", "summation_method", "multi_label", "num_labels",
  /// "label_weights", "from_logits"}, plus "thresholds" when they were given.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

  /// All thresholds, endpoints included.
  const std::vector<double>& thresholds() const { return update_.thresholds; }
  int num_thresholds() const { return options_.num_thresholds; }
  /// The confusion counts per threshold (and label).
  const ConfusionCounts& counts() const { return counts_; }

 private:
  double interpolate_pr_auc() const;
  double average_over_labels(const std::vector<double>& by_label) const;

  AUCOptions options_;
  ConfusionUpdate update_;
  ConfusionCounts counts_;
};

}  // namespace keras::metrics
