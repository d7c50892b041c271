#pragma once
// Model: a Layer that trains. compile() picks optimizer, loss and metrics; fit/evaluate/predict run
// the loops with callbacks. Subclass it and override call() for a subclassed model; Sequential
// derives from it.
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "callbacks/callback.hpp"
#include "callbacks/history.hpp"
#include "data/dataset.hpp"
#include "keras/layer.hpp"
#include "keras/training/logs.hpp"
#include "keras/training/structure.hpp"
#include "losses/loss.hpp"
#include "metrics/metric.hpp"
#include "optimizers/optimizer.hpp"

namespace keras {

struct CompileOptions {
  optimizers::OptimizerRef optimizer = "rmsprop";
  /// One loss for every output, a list in the order of model.outputs, or a map by output name (an
  /// output the map leaves out has no loss), as Keras.
  Structure<losses::LossRef> loss{};
  /// The weight of each output's loss in the total loss: a list or a map by output name (default 1).
  Structure<double> loss_weights{};
  /// One list for every output, a list per output, or lists by output name (see MetricsSpec).
  MetricsSpec metrics{};
};

/// Data for validation or evaluation given as arrays (several inputs/outputs: lists or maps by name).
struct ValidationData {
  Arrays x{};
  Arrays y{};
  Arrays sample_weight{};
};

/// validation_data: arrays, or a Dataset of (x, y[, sample_weight]) batches.
using ValidationSource = std::variant<ValidationData, data::Dataset>;

struct FitOptions {
  std::int64_t batch_size = 32;
  int epochs = 1;
  int verbose = 1;  // 0 silent, 1 progress bar, 2 one line per epoch
  std::vector<callbacks::CallbackRef> callbacks{};
  double validation_split = 0.0;  // the last fraction of x/y, taken before shuffling
  std::optional<ValidationSource> validation_data{};
  bool shuffle = true;
  /// One weight per sample; with several outputs one array for all, a list or a map by output name.
  Arrays sample_weight{};
  int initial_epoch = 0;
  std::optional<std::int64_t> validation_batch_size{};
  /// Weight of each class (by integer label) in the loss, as sample weights.
  std::map<std::int64_t, double> class_weight{};
  /// With a Dataset: batches per epoch (required for an infinite one); the iterator carries on across epochs.
  std::optional<std::int64_t> steps_per_epoch{};
  /// With a validation Dataset: batches per validation run (default: the whole dataset).
  std::optional<std::int64_t> validation_steps{};
};

struct EvaluateOptions {
  std::int64_t batch_size = 32;
  int verbose = 1;
  Arrays sample_weight{};
  std::vector<callbacks::CallbackRef> callbacks{};
  /// With a Dataset: batches to evaluate (default: the whole dataset).
  std::optional<std::int64_t> steps{};
};

struct PredictOptions {
  std::int64_t batch_size = 32;
  int verbose = 0;
  std::vector<callbacks::CallbackRef> callbacks{};
  /// With a Dataset: batches to predict (default: the whole dataset).
  std::optional<std::int64_t> steps{};
};

struct SaveOptions {
  bool include_optimizer = true;
};

struct LoadWeightsOptions {
  bool by_name = false;        // match layers by name instead of by position
  bool skip_mismatch = false;  // with by_name: skip layers whose weights do not fit
};

class FunctionalGraph;
class BatchSource;

class Model : public Layer {
 public:
  /// A subclassed model (override call()).
  explicit Model(const std::string& name = "");
  Model(const std::string& name, const std::string& default_prefix);
  /// A functional model from symbolic inputs (made by Input) to the output they lead to.
  Model(const KerasTensor& input, const KerasTensor& output, const std::string& name = "");
  Model(const std::vector<KerasTensor>& inputs, const KerasTensor& output, const std::string& name = "");
  /// A functional model with several outputs: `Model({in_a, in_b}, {out_1, out_2})`.
  Model(const std::vector<KerasTensor>& inputs, const std::vector<KerasTensor>& outputs, const std::string& name = "");
  Model(const KerasTensor& input, const std::vector<KerasTensor>& outputs, const std::string& name = "");

  /// The forward pass; a subclassed model overrides it.
  Tensor call(const Tensor& inputs, bool training) override;
  /// A functional model with several inputs runs them here.
  Tensor call_multi(const std::vector<Tensor>& inputs, bool training) override;
  /// Builds the model for inputs of this shape (batch dimension included, -1 when unknown).
  void build(const Shape& input_shape) override;
  /// A functional model with several inputs is built with its graph.
  void build_multi(const std::vector<Shape>& input_shapes) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  Shape compute_output_shape_multi(const std::vector<Shape>& input_shapes) const override;
  /// Every output of the model (a functional model's outputs in order); a subclassed model with several
  /// outputs overrides this (and may leave call() alone): compile takes a loss, weight and metrics per output,
  /// fit/evaluate take y as a list, and predict_outputs returns each, as for a functional model.
  std::vector<Tensor> call_outputs(const std::vector<Tensor>& inputs, const Tensor& mask, bool training) override;
  std::vector<Shape> compute_output_shapes(const std::vector<Shape>& input_shapes) const override;
  /// A graph model called under masks hands them to its inputs.
  std::vector<Tensor> call_outputs_masked(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks,
                                          bool training) override;
  /// Keras's model.input_names: the input layers' names ("input_1" for a model without a graph).
  std::vector<std::string> input_names() const;
  /// Keras's model.output_names: the output layers' names, made unique as tf.keras 2.x does
  /// ("lstm_3", "lstm_3_1", ... for one layer's several outputs); "output_1", "output_2", ... for a
  /// subclassed model (one name until its first call shows how many outputs it has).
  std::vector<std::string> output_names() const;
  /// The functional graph's symbolic inputs and outputs (empty for other models).
  std::vector<KerasTensor> inputs() const;
  std::vector<KerasTensor> outputs() const;
  /// "Functional" for a functional model (as tf.keras 2.4+ writes it), "Model" otherwise.
  std::string class_name() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  void compile(CompileOptions options);
  /// Trains on arrays (x and y share their first dimension). Several inputs or outputs: lists in the
  /// order of model.inputs / model.outputs, or maps by name (`{{"image", x1}, {"meta", x2}}`). Returns the
  /// History of epoch logs.
  callbacks::History fit(const Arrays& x, const Arrays& y, FitOptions options = {});
  /// Loss and metrics on arrays, by name ("loss", "accuracy", "dense_2_loss", ...).
  Logs evaluate(const Arrays& x, const Arrays& y, EvaluateOptions options = {});
  /// The output for x, computed in batches (a model with one output; see predict_outputs).
  Tensor predict(const Arrays& x, PredictOptions options = {});
  /// Every output for x, in the order of model.outputs.
  std::vector<Tensor> predict_outputs(const Arrays& x, PredictOptions options = {});
  /// Trains on a Dataset of x, (x, y) or (x, y, sample_weight) batches (batch_size, validation_split and
  /// shuffle do not apply: the Dataset batches and shuffles).
  callbacks::History fit(const data::Dataset& dataset, FitOptions options = {});
  Logs evaluate(const data::Dataset& dataset, EvaluateOptions options = {});
  /// Outputs for the x of every batch, concatenated.
  Tensor predict(const data::Dataset& dataset, PredictOptions options = {});
  std::vector<Tensor> predict_outputs(const data::Dataset& dataset, PredictOptions options = {});

  /// One gradient step on one batch; returns the loss and metrics. With reset_metrics (Keras's
  /// default) they describe this batch only; without it they accumulate until reset_metrics().
  Logs train_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight = {}, bool reset_metrics = true);
  Logs test_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight = {}, bool reset_metrics = true);
  /// The output for one batch (a model with one output); predict_on_batch_outputs gives every output.
  Tensor predict_on_batch(const Arrays& x);
  std::vector<Tensor> predict_on_batch_outputs(const Arrays& x);
  void reset_metrics();

  /// What fit() does with one batch: forward under a GradientTape, compute_loss, apply the gradients,
  /// compute_metrics. Override it in a subclassed model to customise training, as in Keras.
  virtual Logs train_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight);
  /// What evaluate() does with one batch.
  virtual Logs test_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight);
  /// The compiled loss for a batch (also tracked as the "loss" log).
  Tensor compute_loss(const Tensor& x, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight);
  /// Updates the compiled metrics and returns every log ("loss" and each metric).
  Logs compute_metrics(const Tensor& x, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight);
  /// The same for several inputs and outputs (one tensor per model input / output; sample_weight empty,
  /// one for all outputs, or one per output). fit() runs these when the model has several inputs or outputs.
  virtual Logs train_step(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight);
  virtual Logs test_step(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight);
  /// The weighted sum of the outputs' losses plus the layers' losses; each output's loss is tracked as
  /// "<output>_loss" when there are several.
  Tensor compute_loss(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                      const std::vector<Tensor>& sample_weight);
  Logs compute_metrics(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                       const std::vector<Tensor>& sample_weight);

  /// Saves architecture, weights and training configuration in Keras's HDF5 format (".h5"); the file
  /// opens in h5py and real Keras. Written to a temporary file first: a failure keeps the old file.
  void save(const std::string& path, SaveOptions options = {}) const;
  /// Weights only, in Keras's HDF5 layout.
  void save_weights(const std::string& path) const;
  /// Weights from a file written by save_weights, save, or real Keras (2.x or 3.x .h5).
  void load_weights(const std::string& path, LoadWeightsOptions options = {});
  /// The architecture as Keras 2 JSON ({"class_name", "config", "keras_version", "backend"}).
  std::string to_json() const;
  /// compile() arguments as Keras writes them into training_config (null when not compiled).
  json training_config() const;

  /// Prints Keras 2's summary table.
  void summary(std::ostream& out) const;
  void summary() const;

  /// The model's layers, in order (a functional model's input layers first).
  virtual std::vector<LayerPtr> layers() const;
  std::vector<LayerPtr> sublayers() const override { return layers(); }
  LayerPtr get_layer(const std::string& name) const;

  /// Registers a member layer of a subclassed model so its weights are trained and saved.
  template <class L>
  std::shared_ptr<L> track(std::shared_ptr<L> layer) {
    tracked_.push_back(layer);
    return layer;
  }
  template <class L>
    requires std::derived_from<std::decay_t<L>, Layer>
  std::shared_ptr<std::decay_t<L>> track(L&& layer) {
    return track(std::make_shared<std::decay_t<L>>(std::forward<L>(layer)));
  }

  bool compiled() const { return compiled_; }
  optimizers::Optimizer& optimizer() const;
  /// The loss of the first output that has one.
  losses::Loss& loss() const;
  /// Names of the values train_on_batch/evaluate return: "loss", each "<output>_loss" (several outputs), then
  /// each metric.
  std::vector<std::string> metrics_names() const;

  /// Set by a callback to end fit() after the current batch or epoch.
  bool stop_training = false;

  /// Where fit() starts: a callback may set it in on_train_begin to resume training at this epoch and at
  /// this step of it, overriding initial_epoch (Keras's _initial_epoch / _initial_step, which
  /// BackupAndRestore sets). fit() clears it when it has read it.
  struct ResumePoint {
    int epoch = 0;
    std::int64_t step = 0;
  };
  std::optional<ResumePoint> resume_from{};

 protected:
  /// Builds a Logs from the loss tracker and the compiled metrics.
  Logs current_logs() const;
  /// A model used as a layer passes the incoming Keras mask to its graph's input, as Keras does.
  Tensor call_masked(const Tensor& inputs, const Tensor& mask, bool training) override;

  /// The graph the model runs (a functional model's, or the one a Sequential builds); null otherwise.
  const std::shared_ptr<FunctionalGraph>& graph() const { return graph_; }
  void set_graph(std::shared_ptr<FunctionalGraph> graph) { graph_ = std::move(graph); }

 private:
  struct TrainingState;
  std::shared_ptr<TrainingState> state_;
  std::vector<LayerPtr> tracked_{};
  std::shared_ptr<FunctionalGraph> graph_;
  bool compiled_ = false;
  /// A subclassed model's number of outputs, learned on its first call (build or first batch).
  std::optional<std::size_t> output_count_{};

  /// The compiled state with its per-output losses and metrics resolved for `outputs` outputs (0: as known).
  TrainingState& resolved_state(std::size_t outputs = 0);

  void check_compiled(const char* what) const;
  void summary_functional(std::ostream& out) const;
  callbacks::History run_fit_loop(BatchSource& train, BatchSource* validation, const FitOptions& options);
  Logs run_test_loop(BatchSource& data, callbacks::CallbackList& callbacks);
  std::vector<Tensor> run_predict_loop(BatchSource& data, const PredictOptions& options);
  void build_from_data(const std::vector<Tensor>& x);
  /// x, y and sample weights of a batch as one tensor per model input / output (see training/batch_data.cpp).
  std::vector<Tensor> resolve_inputs(const Arrays& x) const;
  std::vector<Tensor> resolve_targets(const Arrays& y) const;
  std::vector<Tensor> resolve_sample_weights(const Arrays& sample_weight) const;
  Logs run_train_step(const Arrays& x, const Arrays& y, const Arrays& sample_weight, const std::map<std::int64_t, double>& class_weight);
  Logs run_test_step(const Arrays& x, const Arrays& y, const Arrays& sample_weight);
  Tensor single_output(std::vector<Tensor> outputs, const char* what) const;
  std::unique_ptr<BatchSource> array_source(const Arrays& x, const Arrays& y, const Arrays& sample_weight,
                                            std::int64_t batch_size, bool shuffle) const;
  std::unique_ptr<BatchSource> validation_source(const ValidationSource& v, const FitOptions& o) const;
};

}  // namespace keras
