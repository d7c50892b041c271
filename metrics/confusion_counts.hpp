#pragma once
// keras.metrics.TruePositives, TrueNegatives, FalsePositives, FalseNegatives: weighted counts of one
// confusion-matrix cell at one or more thresholds.
#include <memory>
#include <string>
#include <vector>

#include "metrics/confusion_matrix.hpp"
#include "metrics/metric.hpp"
#include "metrics/thresholds.hpp"

namespace keras::metrics {

/// Options of the four counters. `thresholds` empty means Keras's default, 0.5; a prediction above a
/// threshold counts as positive (use 0 with logits).
struct ConfusionCountOptions {
  Thresholds thresholds{};
  std::string name{};  // empty: the class's default ("true_positives", ...)
};

/// The shared implementation of the four counters. result() is the count at the first threshold;
/// result_tensor() holds one count per threshold (a scalar for a single threshold, as Keras returns).
class ConfusionCount : public Metric {
 public:
  enum class Cell { true_positives, true_negatives, false_positives, false_negatives };
  ConfusionCount(Cell cell, ConfusionCountOptions options);

  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  Tensor result_tensor() const;
  void reset_state() override { counts_.reset(); }
  std::vector<double> state() const override { return counts_.state(); }
  void set_state(const std::vector<double>& state) override { counts_.set_state(state, name()); }
  std::string class_name() const override;
  /// {"name", "dtype", "thresholds"} (thresholds as given: null, a number or a list).
  json get_config() const override;
  const std::vector<double>& thresholds() const { return update_.thresholds; }

 private:
  const std::vector<double>& cell() const;
  Cell cell_;
  ConfusionCountOptions options_;
  ConfusionUpdate update_;
  ConfusionCounts counts_;
};

class TruePositives : public ConfusionCount {
 public:
  explicit TruePositives(ConfusionCountOptions options = {}) : ConfusionCount(Cell::true_positives, std::move(options)) {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

class TrueNegatives : public ConfusionCount {
 public:
  explicit TrueNegatives(ConfusionCountOptions options = {}) : ConfusionCount(Cell::true_negatives, std::move(options)) {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

class FalsePositives : public ConfusionCount {
 public:
  explicit FalsePositives(ConfusionCountOptions options = {})
      : ConfusionCount(Cell::false_positives, std::move(options)) {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

class FalseNegatives : public ConfusionCount {
 public:
  explicit FalseNegatives(ConfusionCountOptions options = {})
      : ConfusionCount(Cell::false_negatives, std::move(options)) {}
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
