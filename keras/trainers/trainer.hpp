#pragma once
// Trainer (Keras 3's trainers/trainer.py): what compile() sets up for one model (optimizer, a loss and
// metrics per output, the loss trackers) and what fit, evaluate and predict run: the data adapters, the
// epoch loops firing the callbacks, and the default train/test/predict steps. A Model holds one and
// forwards its training methods to it; the model itself is passed to each call, never stored.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "keras/trainers/batch.hpp"
#include "keras/trainers/compiled_metrics.hpp"
#include "keras/trainers/data_adapter.hpp"
#include "keras/trainers/options.hpp"
#include "metrics/metric.hpp"

namespace keras {

class Function;
class Model;
class ReplicaSync;

class Trainer {
 public:
  /// Not compiled: the model can only predict.
  Trainer() = default;
  /// compile(): checks the options; the per-output parts are resolved once the model's outputs are known.
  Trainer(const Model& model, CompileOptions options);

  bool compiled() const { return compiled_; }
  /// compile()'s arguments as given (for training_config).
  const CompileOptions& options() const { return options_; }
  optimizers::Optimizer& optimizer(const Model& model) const;
  losses::Loss& loss(const Model& model) const;
  std::vector<std::string> metrics_names() const;
  void reset_metrics();

  callbacks::History fit(Model& model, const Arrays& x, const Arrays& y, FitOptions options);
  callbacks::History fit(Model& model, const data::Dataset& dataset, const FitOptions& options);
  Logs evaluate(Model& model, const Arrays& x, const Arrays& y, const EvaluateOptions& options);
  Logs evaluate(Model& model, const data::Dataset& dataset, const EvaluateOptions& options);
  std::vector<Tensor> predict(Model& model, const Arrays& x, const PredictOptions& options);
  std::vector<Tensor> predict(Model& model, const data::Dataset& dataset, const PredictOptions& options);
  Logs train_on_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset);
  Logs test_on_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset);
  std::vector<Tensor> predict_on_batch(Model& model, const Arrays& x);

  /// The default steps behind Model::train_step, test_step, compute_loss and compute_metrics.
  Logs train_step(Model& model, const Batch& data);
  Logs test_step(Model& model, const Batch& data);
  Tensor compute_loss(Model& model, const Batch& data, const std::vector<Tensor>& y_pred);
  Logs compute_metrics(Model& model, const Batch& data, const std::vector<Tensor>& y_pred);

  /// Resolves the per-output losses, weights and metrics for the model's outputs (once; `outputs`: a
  /// subclassed model's output count, learned from its first batch, or 0 when known).
  void resolve_outputs(Model& model, std::size_t outputs);

  /// x, y and sample_weight matched to the model's inputs and outputs (builds the model first, so that a
  /// subclassed model's outputs are known); sample_weight becomes empty or one array per output.
  static Batch resolve_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight);

 private:
  void check_compiled(const Model& model, const char* what) const;
  /// train_step as one replica of a distribution strategy (trainer_replica_step.cpp).
  Logs replica_train_step(Model& model, const Batch& data, ReplicaSync& sync);
  /// train_step as a compiled function (trainer_compiled_step.cpp); the eager step where it cannot be.
  Logs compiled_train_step(Model& model, const Batch& data);
  Logs eager_train_step(Model& model, const Batch& data);
  /// Builds a model that is not yet (from this replica's batch) and gives it the chief's weights (once).
  void sync_replica_model(Model& model, const Batch& data, ReplicaSync& sync);
  /// The loss trackers and compiled metrics, by the names they log under.
  LoggedMetrics logged_metrics();
  Logs logs();
  std::unique_ptr<DataAdapter> adapter(Model& model, const data::Dataset& dataset, std::optional<std::int64_t> steps,
                                       const char* what, bool carry_over) const;
  std::unique_ptr<DataAdapter> validation_adapter(Model& model, const ValidationSource& v, const FitOptions& o) const;
  callbacks::History run_fit_loop(Model& model, DataAdapter& train, DataAdapter* validation, const FitOptions& o);
  Logs run_test_loop(Model& model, DataAdapter& data, callbacks::CallbackList& callbacks);
  std::vector<Tensor> run_predict_loop(Model& model, DataAdapter& data, const PredictOptions& o);

  bool compiled_ = false;
  CompileOptions options_;
  std::shared_ptr<optimizers::Optimizer> optimizer_;
  /// The per-output fields below are filled from `options_` once the outputs are known: at compile() for a
  /// graph model, at the first batch for a subclassed one (as Keras learns its outputs on the first call).
  bool resolved_ = false;
  std::vector<std::string> output_names_;
  std::vector<std::shared_ptr<losses::Loss>> losses_;      // per output; null: that output has no loss
  std::vector<double> loss_weights_;                       // per output
  metrics::Mean loss_tracker_{{.name = "loss"}};
  std::vector<std::shared_ptr<metrics::Mean>> output_loss_trackers_;  // "<output>_loss", several outputs only
  std::vector<CompiledMetrics> metrics_;                   // per output, unweighted
  std::vector<CompiledMetrics> weighted_metrics_;          // per output, weighted by sample_weight
  /// The compiled train step, its model during a call, and (while it traces) where compute_loss puts
  /// each output's loss instead of updating the trackers.
  std::shared_ptr<Function> compiled_step_;
  Model* compiled_model_ = nullptr;
  std::vector<Tensor>* traced_losses_ = nullptr;
};

/// Throws unless every defined array of `data` holds the same number of samples; `model` names the model.
void check_same_samples(const Batch& data, const std::string& model);

}  // namespace keras
