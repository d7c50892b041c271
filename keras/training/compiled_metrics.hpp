#pragma once
// The state compile() creates: optimizer, a loss per output, the loss trackers and each output's metrics,
// resolved from their identifiers when the first batch shows the shapes (so "accuracy" means what Keras
// means). Log names follow tf.keras 2.x: "loss", "<output>_loss" and "<output>_<metric>" with several outputs.
#include <memory>
#include <vector>

#include "keras/model.hpp"
#include "keras/training/logs.hpp"
#include "losses/loss.hpp"
#include "metrics/metric.hpp"
#include "optimizers/optimizer.hpp"

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

struct Model::TrainingState {
  std::shared_ptr<optimizers::Optimizer> optimizer;
  CompileOptions options;                                 // as given, for training_config
  /// The per-output fields below are filled from `options` once the outputs are known: at compile() for a
  /// graph model, at the first batch for a subclassed one (as Keras learns its outputs on the first call).
  bool resolved = false;
  void resolve(const std::vector<std::string>& output_names, const std::string& model);
  std::vector<std::string> output_names;
  std::vector<std::shared_ptr<losses::Loss>> losses;      // per output; null: that output has no loss
  std::vector<double> loss_weights;                       // per output
  metrics::Mean loss_tracker{{.name = "loss"}};
  std::vector<std::shared_ptr<metrics::Mean>> output_loss_trackers;  // "<output>_loss", several outputs only
  std::vector<CompiledMetrics> metrics;                   // per output
};

}  // namespace keras
