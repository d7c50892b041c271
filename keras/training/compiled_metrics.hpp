#pragma once
// The state compile() creates: optimizer, loss, the loss tracker and the metrics, resolved from
// their identifiers when the first batch shows the shapes (so "accuracy" means what Keras means).
#include <memory>
#include <vector>

#include "keras/model.hpp"
#include "keras/training/logs.hpp"
#include "losses/loss.hpp"
#include "metrics/metric.hpp"
#include "optimizers/optimizer.hpp"

namespace keras {

class CompiledMetrics {
 public:
  explicit CompiledMetrics(std::vector<metrics::MetricRef> specs) : specs_(std::move(specs)) {}
  void update_state(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight, const std::string& loss_class);
  void reset_state();
  /// Appends name → result for each metric.
  void write(Logs& logs) const;
  /// Names known so far (all of them once the first batch has been seen).
  std::vector<std::string> names() const;
  /// The metrics as compile() received them: identifiers as strings, objects serialized.
  json serialize() const;

 private:
  std::vector<metrics::MetricRef> specs_;
  std::vector<std::shared_ptr<metrics::Metric>> metrics_;
};

struct Model::TrainingState {
  std::shared_ptr<optimizers::Optimizer> optimizer;
  std::shared_ptr<losses::Loss> loss;
  metrics::Mean loss_tracker{{.name = "loss"}};
  CompiledMetrics metrics;
};

}  // namespace keras
