#pragma once
// The metrics compile() gives one output, resolved from their identifiers when the first batch shows the
// shapes (so "accuracy" means what Keras means). Log names follow tf.keras 2.x: "<output>_<metric>" with
// several outputs.
#include <memory>
#include <string>
#include <vector>

#include "keras/utils/logs.hpp"
#include "metrics/metric.hpp"

namespace keras {

/// The metrics of one output; their logs are named `prefix` + metric name.
class CompiledMetrics {
 public:
  explicit CompiledMetrics(std::vector<metrics::MetricRef> specs, std::string prefix = "")
      : specs_(std::move(specs)), prefix_(std::move(prefix)) {}
  void update_state(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight, const std::string& loss_class);
  void reset_state();
  /// Appends name → result for each metric.
  void write(Logs& logs) const;
  /// Names known so far (all of them once the first batch has been seen).
  std::vector<std::string> names() const;

 private:
  std::vector<metrics::MetricRef> specs_;
  std::string prefix_;
  std::vector<std::shared_ptr<metrics::Metric>> metrics_;
};

}  // namespace keras
