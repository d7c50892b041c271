#pragma once
// keras.metrics.SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall and
// RecallAtPrecision: the best value of one rate among the thresholds where another reaches a target.
#include <memory>
#include <optional>
#include <string>

#include "metrics/confusion_matrix.hpp"
#include "metrics/metric.hpp"

namespace keras::metrics {

struct SensitivityAtSpecificityOptions {
  int num_thresholds = 200;
  std::optional<int> class_id = std::nullopt;
  std::string name = "sensitivity_at_specificity";
};
struct SpecificityAtSensitivityOptions {
  int num_thresholds = 200;
  std::optional<int> class_id = std::nullopt;
  std::string name = "specificity_at_sensitivity";
};
struct PrecisionAtRecallOptions {
  int num_thresholds = 200;
  std::optional<int> class_id = std::nullopt;
  std::string name = "precision_at_recall";
};
struct RecallAtPrecisionOptions {
  int num_thresholds = 200;
  std::optional<int> class_id = std::nullopt;
  std::string name = "recall_at_precision";
};

/// Counts tp, tn, fp, fn at num_thresholds thresholds evenly spaced over [0, 1] (0.5 alone when
/// num_thresholds is 1); result() is the largest `dependent` rate among the thresholds whose
/// `constrained` rate is >= the target value, or 0 when none is.
class SensitivitySpecificityBase : public Metric {
 public:
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  void reset_state() override { counts_.reset(); }
  std::vector<double> state() const override { return counts_.state(); }
  void set_state(const std::vector<double>& state) override { counts_.set_state(state, name()); }
  /// {"name", "dtype", "class_id", "num_thresholds", <the target's name>: value}.
  json get_config() const override;
  double value() const { return value_; }
  int num_thresholds() const { return num_thresholds_; }

 protected:
  SensitivitySpecificityBase(std::string name, double value, int num_thresholds, std::optional<int> class_id,
                             const char* value_key, const std::string& class_name);
  enum class Rate { sensitivity, specificity, precision };
  double rate(Rate r, std::size_t i) const;
  double max_under_constraint(Rate constrained, Rate dependent) const;
  ConfusionCounts counts_;

 private:
  double value_;
  int num_thresholds_;
  const char* value_key_;
  ConfusionUpdate update_;
};

/// Best sensitivity (recall) where specificity >= `specificity`.
class SensitivityAtSpecificity : public SensitivitySpecificityBase {
 public:
  explicit SensitivityAtSpecificity(double specificity, SensitivityAtSpecificityOptions options = {});
  double result() const override { return max_under_constraint(Rate::specificity, Rate::sensitivity); }
  std::string class_name() const override { return "SensitivityAtSpecificity"; }
  static std::shared_ptr<Metric> from_config(const json& config);
};

/// Best specificity where sensitivity >= `sensitivity`.
class SpecificityAtSensitivity : public SensitivitySpecificityBase {
 public:
  explicit SpecificityAtSensitivity(double sensitivity, SpecificityAtSensitivityOptions options = {});
  double result() const override { return max_under_constraint(Rate::sensitivity, Rate::specificity); }
  std::string class_name() const override { return "SpecificityAtSensitivity"; }
  static std::shared_ptr<Metric> from_config(const json& config);
};

/// Best precision where recall >= `recall`.
class PrecisionAtRecall : public SensitivitySpecificityBase {
 public:
  explicit PrecisionAtRecall(double recall, PrecisionAtRecallOptions options = {});
  double result() const override { return max_under_constraint(Rate::sensitivity, Rate::precision); }
  std::string class_name() const override { return "PrecisionAtRecall"; }
  static std::shared_ptr<Metric> from_config(const json& config);
};

/// Best recall where precision >= `precision` (0 when that precision is never reached).
class RecallAtPrecision : public SensitivitySpecificityBase {
 public:
  explicit RecallAtPrecision(double precision, RecallAtPrecisionOptions options = {});
  double result() const override { return max_under_constraint(Rate::precision, Rate::sensitivity); }
  std::string class_name() const override { return "RecallAtPrecision"; }
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
