#pragma once
// keras.metrics.R2Score (tf.keras 2.13): the coefficient of determination, optionally adjusted for
// the number of regressors.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct R2ScoreOptions {
  /// How the scores of the output dimensions (last axis) are combined: "uniform_average",
  /// "variance_weighted_average", or nullopt for one score per output.
  std::optional<std::string> class_aggregation = "uniform_average";
  /// Regressors for the adjusted R2 (0: plain R2). When it is not below n - 1, where n is (as in Keras)
  /// the number of target values seen, the plain R2 is returned.
  int num_regressors = 0;
  std::string name = "r2_score";
};

/// 1 - SS_res / SS_tot per output column of (batch, outputs) targets, accumulated over batches with
/// sample weights (one per sample, or one per value). A column whose score is infinite (constant targets,
/// nonzero error) scores 0, as in Keras. result_tensor() is Keras's result: one score per output
/// without aggregation, else a scalar; result() is that scalar, or, without aggregation, the uniform
/// average. Before any update result() is 0.
class R2Score : public Metric {
 public:
  explicit R2Score(R2ScoreOptions options = {});
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  Tensor result_tensor() const;
  void reset_state() override;
  std::vector<double> state() const override;
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "R2Score"; }
  /// {"name", "dtype", "class_aggregation", "num_regressors"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  std::vector<double> raw_scores() const;
  double adjust(double r2) const;

  R2ScoreOptions options_;
  bool built_ = false;
  std::vector<double> sum_, squared_sum_, residual_, count_;
  double num_samples_ = 0;
};

}  // namespace keras::metrics
