#pragma once
// keras.metrics.Precision and keras.metrics.Recall, at one or more thresholds, optionally limited to the
// top-k predictions of each row or to one class.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/confusion_matrix.hpp"
#include "metrics/metric.hpp"
#include "metrics/thresholds.hpp"

namespace keras::metrics {

/// Keras's arguments. `thresholds` empty means the default: 0.5, or, when top_k is set, "in the top k"
/// alone. A prediction above a threshold counts as positive (use 0 with logits).
struct PrecisionOptions {
  Thresholds thresholds{};
  std::optional<int> top_k = std::nullopt;
  std::optional<int> class_id = std::nullopt;
  std::string name = "precision";
};

struct RecallOptions {
  Thresholds thresholds{};
  std::optional<int> top_k = std::nullopt;
  std::optional<int> class_id = std::nullopt;
  std::string name = "recall";
};

/// What Precision and Recall share: true positives plus false positives or false negatives per threshold.
/// result() is the value at the first threshold; result_tensor() holds one value per threshold (a scalar
/// for a single threshold).
class PrecisionRecallBase : public Metric {
 public:
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override { return value(0); }
  Tensor result_tensor() const;
  void reset_state() override { counts_.reset(); }
  std::vector<double> state() const override { return counts_.state(); }
  void set_state(const std::vector<double>& state) override { counts_.set_state(state, name()); }
  /// {"name", "dtype", "thresholds", "top_k", "class_id"} (null where not given).
  json get_config() const override;
  const std::vector<double>& thresholds() const { return update_.thresholds; }

 protected:
  PrecisionRecallBase(std::string name, Thresholds thresholds, std::optional<int> top_k,
                      std::optional<int> class_id, const std::string& class_name);
  /// The metric at threshold i.
  virtual double value(std::size_t i) const = 0;
  ConfusionCounts counts_;

 private:
  Thresholds init_thresholds_;
  ConfusionUpdate update_;
};

/// tp / (tp + fp) (0 when nothing is predicted positive).
class Precision : public PrecisionRecallBase {
 public:
  explicit Precision(PrecisionOptions options = {});
  std::string class_name() const override { return "Precision"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 protected:
  double value(std::size_t i) const override { return divide_no_nan(counts_.tp[i], counts_.tp[i] + counts_.fp[i]); }
};

/// tp / (tp + fn) (0 when there are no positives).
class Recall : public PrecisionRecallBase {
 public:
  explicit Recall(RecallOptions options = {});
  std::string class_name() const override { return "Recall"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 protected:
  double value(std::size_t i) const override { return divide_no_nan(counts_.tp[i], counts_.tp[i] + counts_.fn[i]); }
};

}  // namespace keras::metrics
