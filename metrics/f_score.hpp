#pragma once
// keras.metrics.FBetaScore and F1Score (tf.keras 2.13): the weighted harmonic mean of precision and
// recall, per class or averaged.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct FBetaScoreOptions {
  /// nullopt (one score per class), "micro" (global counts), "macro" (unweighted mean of the class
  /// scores) or "weighted" (mean weighted by each class's support).
  std::optional<std::string> average = std::nullopt;
  /// The weight of recall: F = (1 + beta^2) * P * R / (beta^2 * P + R). Must be > 0.
  double beta = 1.0;
  /// Predictions above it are positive; nullopt marks the largest prediction(s) of each row instead.
  /// Must be in (0, 1].
  std::optional<double> threshold = std::nullopt;
  std::string name = "fbeta_score";
};

struct F1ScoreOptions {
  std::optional<std::string> average = std::nullopt;
  std::optional<double> threshold = std::nullopt;
  std::string name = "f1_score";
};

/// Takes y_true and y_pred shaped (batch, classes); sample_weight is one weight per sample.
/// result_tensor() is what Keras's result() returns: one score per class when average is nullopt, else
/// a scalar. result() is that scalar, or, with no averaging, the unweighted mean of the class scores.
class FBetaScore : public Metric {
 public:
  explicit FBetaScore(FBetaScoreOptions options = {}) : FBetaScore(std::move(options), "FBetaScore") {}
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  Tensor result_tensor() const;
  void reset_state() override;
  std::vector<double> state() const override;
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "FBetaScore"; }
  /// {"name", "dtype", "average", "beta", "threshold"} (null where not given).
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 protected:
  /// `class_name` names the class in argument errors.
  FBetaScore(FBetaScoreOptions options, const char* class_name);
  std::vector<double> scores() const;  // per class, or one micro score
  FBetaScoreOptions options_;

 private:
  bool built_ = false;
  std::vector<double> tp_, fp_, fn_, support_;
};

/// FBetaScore with beta = 1.
class F1Score : public FBetaScore {
 public:
  explicit F1Score(F1ScoreOptions options = {})
      : FBetaScore({.average = options.average, .beta = 1.0, .threshold = options.threshold, .name = options.name},
                   "F1Score") {}
  std::string class_name() const override { return "F1Score"; }
  /// {"name", "dtype", "average", "threshold"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
