#pragma once
// keras.metrics.RootMeanSquaredError: the square root of the running weighted mean of squared errors.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct RootMeanSquaredErrorOptions {
  std::string name = "root_mean_squared_error";
};

/// sqrt(sum(w * (y_pred - y_true)^2) / sum(w)) over every element seen; a per-sample weight applies to
/// all of the sample's elements. Registered as "RootMeanSquaredError" and "root_mean_squared_error"
/// (Keras has no "rmse" alias).
class RootMeanSquaredError : public Metric {
 public:
  explicit RootMeanSquaredError(RootMeanSquaredErrorOptions options = {})
      : Metric(options.name), squared_errors_({.name = options.name}) {}
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override;
  void reset_state() override { squared_errors_.reset_state(); }
  std::vector<double> state() const override { return squared_errors_.state(); }
  void set_state(const std::vector<double>& state) override { squared_errors_.set_state(state); }
  std::string class_name() const override { return "RootMeanSquaredError"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  Mean squared_errors_;
};

}  // namespace keras::metrics
