#pragma once
// The metrics compile() gives one output, resolved from their identifiers when the first batch shows the
// shapes (so "accuracy" means what Keras means). Log names follow tf.keras 2.x: "<output>_<metric>" with
// several outputs. compile's `metrics` ignore sample weights; its `weighted_metrics` use them, and one whose
// name an unweighted metric already logs is logged as "[<output>_]weighted_<metric>".
#include <memory>
#include <string>
#include <vector>

#include "keras/trainers/replica_sync.hpp"
#include "keras/utils/logs.hpp"
#include "metrics/metric.hpp"

namespace keras {

/// The metrics (or the weighted metrics) of one output; their logs are named `prefix` + metric name.
class CompiledMetrics {
 public:
  explicit CompiledMetrics(std::vector<metrics::MetricRef> specs, std::string prefix = "", bool weighted = false)
      : specs_(std::move(specs)), prefix_(std::move(prefix)), weighted_(weighted) {}
  /// Updates every metric; sample_weight reaches them only when they are weighted metrics.
  void update_state(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight, const std::string& loss_class);
  void reset_state();
  /// Appends log name → metric for each metric; `taken`: the names the unweighted metrics log.
  void collect(LoggedMetrics& out, const std::vector<std::string>& taken = {}) const;
  /// Log names known so far (all of them once the first batch has been seen).
  std::vector<std::string> names(const std::vector<std::string>& taken = {}) const;

 private:
  std::string log_name(const std::string& metric_name, const std::vector<std::string>& taken) const;

  std::vector<metrics::MetricRef> specs_;
  std::string prefix_;
  bool weighted_;
  std::vector<std::shared_ptr<metrics::Metric>> metrics_;
};

}  // namespace keras
