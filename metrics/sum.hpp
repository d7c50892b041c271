#pragma once
// keras.metrics.Sum: the running weighted sum of the values it is given.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct SumOptions {
  std::string name = "sum";
};

/// Sum of values * sample_weight over every update (keras.metrics.Sum).
///
///     metrics::Sum s;
///     s(Tensor::from_vector<float>({1, 3, 5, 7}));   // 16
class Sum : public Metric {
 public:
  explicit Sum(SumOptions options = {}) : Metric(options.name) {}
  /// Adds values (any shape), each weighted by sample_weight (broadcast as for Mean) when given.
  void update(const Tensor& values, const Tensor& sample_weight = Tensor());
  void update(double value, double weight = 1.0) { total_ += value * weight; }
  /// Keras's `m(values, sample_weight)`: updates, then returns result().
  double operator()(const Tensor& values, const Tensor& sample_weight = Tensor()) {
    update(values, sample_weight);
    return result();
  }
  double operator()(double value, double weight = 1.0) {
    update(value, weight);
    return result();
  }
  /// Metric interface: sums y_pred (y_true is ignored).
  void update_state(const Tensor& /*y_true*/, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override {
    update(y_pred, sample_weight);
  }
  double result() const override { return total_; }
  void reset_state() override { total_ = 0; }
  std::vector<double> state() const override { return {total_}; }
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "Sum"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  double total_ = 0;
};

}  // namespace keras::metrics
