#pragma once
// Model: a Layer made of layers (a functional graph, a Sequential stack, or a subclass's members), with
// Keras's training entry points (compile, fit, evaluate, predict, *_on_batch). Those run in the model's
// Trainer (keras/trainers/); this header only declares them, so the core floors stay free of the
// training floors. Include keras/keras.hpp (or keras/trainers/options.hpp) to call them.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/layer.hpp"
#include "keras/utils/logs.hpp"

namespace keras {

template <class T>
class Structure;
/// Arrays for x, y or sample_weight: one Tensor, a list in model.inputs / model.outputs order, or a map by
/// name (keras/trainers/structure.hpp).
using Arrays = Structure<Tensor>;
struct Batch;
struct CompileOptions;
struct FitOptions;
struct EvaluateOptions;
struct PredictOptions;
class Trainer;
namespace callbacks {
class History;
}
namespace data {
class Dataset;
}
namespace losses {
class Loss;
}
namespace optimizers {
class Optimizer;
}

struct SaveOptions {
  bool include_optimizer = true;
};

struct SaveWeightsOptions {
  /// Gigabytes per shard, for a file name ending in ".weights.json" (Keras 3's sharded weights; 5 if unset).
  std::optional<double> max_shard_size{};
};

struct LoadWeightsOptions {
  bool by_name = false;        // match layers by name instead of by position
  bool skip_mismatch = false;  // with by_name: skip layers whose weights do not fit
};

class FunctionalGraph;

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

  /// The forward pass of one input; a subclassed model overrides it.
  Tensor call(const Tensor& inputs, bool training) override;
  /// Every output: a functional model runs its graph (the context's masks reach its inputs, as when Keras
  /// calls a model as a layer under a mask). A subclassed model with several inputs or outputs overrides this
  /// instead of the simple call(): compile then takes a loss, weight and metrics per output, fit/evaluate take
  /// y as a list, and predict_outputs returns each, as for a functional model.
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// Builds the model for inputs of this shape (batch dimension included, -1 when unknown).
  void build(const Shape& input_shape) override;
  /// A functional model is built with its graph; a subclassed one runs a sample through call().
  void build(const std::vector<Shape>& input_shapes) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  /// Keras's model.input_names: the input layers' names ("input_1" for a model without a graph).
  std::vector<std::string> input_names() const;
  /// Keras's model.output_names: the output layers' names, made unique as tf.keras 2.x does
  /// ("lstm_3", "lstm_3_1", ... for one layer's several outputs); "output_1", "output_2", ... for a
  /// subclassed model (one name until its first call shows how many outputs it has).
  virtual std::vector<std::string> output_names() const;
  /// The functional graph's symbolic inputs and outputs (empty for other models).
  std::vector<KerasTensor> inputs() const;
  std::vector<KerasTensor> outputs() const;
  /// "Functional" for a functional model (as tf.keras 2.4+ writes it), "Model" otherwise.
  std::string class_name() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// Chooses the optimizer, the loss(es) and the metrics (a new Trainer: metrics start again).
  void compile(const CompileOptions& options);
  /// Trains on arrays (x and y share their first dimension). Several inputs or outputs: lists in the
  /// order of model.inputs / model.outputs, or maps by name (`{{"image", x1}, {"meta", x2}}`). Returns the
  /// History of epoch logs.
  callbacks::History fit(const Arrays& x, const Arrays& y);
  callbacks::History fit(const Arrays& x, const Arrays& y, const FitOptions& options);
  /// Trains on a Dataset of x, (x, y) or (x, y, sample_weight) batches (batch_size, validation_split and
  /// shuffle do not apply: the Dataset batches and shuffles).
  callbacks::History fit(const data::Dataset& dataset);
  callbacks::History fit(const data::Dataset& dataset, const FitOptions& options);
  /// Loss and metrics, by name ("loss", "accuracy", "dense_2_loss", ...).
  Logs evaluate(const Arrays& x, const Arrays& y);
  Logs evaluate(const Arrays& x, const Arrays& y, const EvaluateOptions& options);
  Logs evaluate(const data::Dataset& dataset);
  Logs evaluate(const data::Dataset& dataset, const EvaluateOptions& options);
  /// The output for x, computed in batches (a model with one output; see predict_outputs).
  Tensor predict(const Arrays& x);
  Tensor predict(const Arrays& x, const PredictOptions& options);
  /// Outputs for the x of every batch of a Dataset, concatenated.
  Tensor predict(const data::Dataset& dataset);
  Tensor predict(const data::Dataset& dataset, const PredictOptions& options);
  /// Every output, in the order of model.outputs.
  std::vector<Tensor> predict_outputs(const Arrays& x);
  std::vector<Tensor> predict_outputs(const Arrays& x, const PredictOptions& options);
  std::vector<Tensor> predict_outputs(const data::Dataset& dataset);
  std::vector<Tensor> predict_outputs(const data::Dataset& dataset, const PredictOptions& options);

  /// One gradient step on one batch; returns the loss and metrics. With reset_metrics (Keras's
  /// default) they describe this batch only; without it they accumulate until reset_metrics().
  Logs train_on_batch(const Arrays& x, const Arrays& y);
  Logs train_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset_metrics = true);
  Logs test_on_batch(const Arrays& x, const Arrays& y);
  Logs test_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset_metrics = true);
  /// The output for one batch (a model with one output); predict_on_batch_outputs gives every output.
  Tensor predict_on_batch(const Arrays& x);
  std::vector<Tensor> predict_on_batch_outputs(const Arrays& x);
  void reset_metrics();

  /// What fit() does with one batch (x, y and sample_weight as one tensor per model input / output;
  /// sample_weight empty or one per output): the forward pass under a GradientTape, compute_loss, the
  /// optimizer step, compute_metrics. Override it in a subclassed model to customise training, as in Keras.
  virtual Logs train_step(const Batch& data);
  /// What evaluate() does with one batch: the forward pass, compute_loss, compute_metrics.
  virtual Logs test_step(const Batch& data);
  /// What predict() does with one batch of inputs: every output of the forward pass.
  virtual std::vector<Tensor> predict_step(const std::vector<Tensor>& x);
  /// The compiled loss: each output's loss (weighted as compile() says; tracked as "<output>_loss" when there
  /// are several) plus the layers' losses; tracked as the "loss" log.
  virtual Tensor compute_loss(const std::vector<Tensor>& x, const std::vector<Tensor>& y,
                              const std::vector<Tensor>& y_pred, const std::vector<Tensor>& sample_weight);
  /// Updates the compiled metrics and returns every log ("loss" and each metric).
  virtual Logs compute_metrics(const std::vector<Tensor>& x, const std::vector<Tensor>& y,
                               const std::vector<Tensor>& y_pred, const std::vector<Tensor>& sample_weight);

  /// Saves architecture, weights and training configuration, in the format the name says as Keras 3
  /// does: ".keras" (Keras 3's zip archive) or ".h5"/".hdf5" (Keras's HDF5 file); any other name is a
  /// ValueError. Written to a temporary file first: a failure keeps the old file.
  void save(const std::string& path, SaveOptions options = {}) const;
  /// Weights only: "*.weights.h5" in Keras 3's layout (with the optimizer's state when compiled),
  /// "*.weights.json" as Keras 3's shards, any other name in Keras 2's HDF5 layout.
  void save_weights(const std::string& path, SaveWeightsOptions options = {}) const;
  /// Weights from a file written by save_weights, save, or real Keras: .h5 (Keras 2.x, 3.x), .weights.h5,
  /// .weights.json, .keras. by_name applies to Keras 2's layout (Keras 3 matches objects by path).
  void load_weights(const std::string& path, LoadWeightsOptions options = {});
  /// The architecture as Keras 2 JSON ({"class_name", "config", "keras_version", "backend"}).
  std::string to_json() const;
  /// compile() arguments as Keras writes them into training_config (null when not compiled).
  json training_config() const;
  /// compile() arguments as Keras 3 writes them into a .keras file's compile_config (null when not
  /// compiled): identifiers as given ("adam"), objects serialized. After compile_from_config, the config
  /// it was given, as Keras 3 keeps compile()'s arguments as they were passed.
  json compile_config() const;
  /// Compiles from a Keras 3 compile_config, as Keras 3's model.compile_from_config (load_model does it).
  void compile_from_config(const json& config);

  /// Prints Keras 2's summary table (a Sequential's has no "Connected to" column).
  virtual void summary(std::ostream& out) const;
  void summary() const;

  /// The model's layers, in order (a functional model's input layers first).
  virtual std::vector<LayerPtr> layers() const;
  std::vector<LayerPtr> sublayers() const override { return layers(); }
  /// A model takes strings (its layers decide) and gives its first output's dtype on symbolic tensors
  /// (strings for a model ending in StringLookup(invert=true)).
  bool accepts_strings() const override { return true; }
  DType output_dtype() const override;
  /// True when some layer of the model is stateful (Keras's model.stateful).
  bool stateful() const override;
  /// Resets the states of every stateful layer of the model (Keras's model.reset_states()); no-op without any.
  void reset_states() override;
  LayerPtr get_layer(const std::string& name) const;
  /// The number of outputs, when known: a graph's, or a subclassed model's after its first call.
  virtual std::optional<std::size_t> output_count() const;

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

  bool compiled() const;
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

  /// The graph the model runs (a functional model's, or the one a Sequential builds); null otherwise.
  const std::shared_ptr<FunctionalGraph>& graph() const { return graph_; }

 protected:
  void set_graph(std::shared_ptr<FunctionalGraph> graph) { graph_ = std::move(graph); }
  /// Keras 2's table of layers, output shapes and parameter counts (Sequential's form).
  void summary_layers(std::ostream& out) const;

 private:
  friend class Trainer;
  /// The trainer: made by compile(), or uncompiled for predict.
  Trainer& trainer();
  std::shared_ptr<Trainer> trainer_;
  std::shared_ptr<const json> compile_config_;  // set by compile_from_config, cleared by compile()
  std::vector<LayerPtr> tracked_{};
  std::shared_ptr<FunctionalGraph> graph_;
  /// A subclassed model's number of outputs, learned on its first call (build or first batch).
  std::optional<std::size_t> output_count_{};

  void summary_functional(std::ostream& out) const;

  KERAS_LAYER_MOVE(Model)
};

}  // namespace keras
