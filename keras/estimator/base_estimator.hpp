#pragma once
// Estimator (tf.estimator.Estimator): a model given as a model_fn, trained, evaluated and used for
// prediction on input_fn's data, with its state in model_dir.
//
//   auto model_fn = [](const Features& features, const KerasTensor& labels, ModeKeys mode, const json& params) {
//     auto net = keras::estimator::input_layer(features, columns);
//     net = keras::layers::Dense(10, {.activation = "relu"})(net);
//     auto logits = keras::layers::Dense(3)(net);
//     return EstimatorSpec{.mode = mode, .predictions = {{"logits", logits}},
//                          .loss = keras::losses::SparseCategoricalCrossentropy({.from_logits = true}),
//                          .train_op = keras::optimizers::Adagrad({.learning_rate = 0.1}),
//                          .eval_metric_ops = {"accuracy"}};
//   };
//   Estimator est(model_fn, {.model_dir = "/tmp/iris"});
//   est.train(train_input_fn, {.steps = 200});          // resumes from model_dir's latest checkpoint
//   auto metrics = est.evaluate(eval_input_fn);         // {"accuracy", "loss", "global_step"}
//
// input_fn returns a Dataset of (features, labels) batches; features is a map name -> Tensor (a plain
// Tensor is the one feature "x"); rank-1 features are read as [batch, 1], as tf's feature columns read
// them. As in tf, every train/evaluate/predict call builds the mode's graph with model_fn (once per mode
// here, the model kept) and loads the latest checkpoint of model_dir into it when it is newer than what the
// model holds; train() saves checkpoints (model_dir/model.ckpt-<global_step>.h5, kerascpp's HDF5 checkpoint
// format, listed in model_dir/checkpoint) and the loss summaries; evaluate() writes its metrics as
// summaries to model_dir/eval (eval_<name>) at the global step.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "keras/estimator/dense_features.hpp"
#include "keras/estimator/estimator_spec.hpp"
#include "keras/estimator/run_config.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"

namespace keras::summary {
class SummaryWriter;
}

namespace keras::estimator {

using ModelFn = std::function<EstimatorSpec(const Features& features, const KerasTensor& labels, ModeKeys mode,
                                            const json& params)>;
/// Returns the data of one call: a Dataset of (features, labels) batches (features alone for predict).
using InputFn = std::function<data::Dataset()>;

struct EstimatorOptions {
  /// Where checkpoints and summaries go (or config.model_dir; both given must agree).
  std::string model_dir{};
  RunConfig config{};
  json params = json::object();
};

struct TrainArgs {
  /// Train this many more steps (or until input_fn's data ends).
  std::optional<std::int64_t> steps{};
  /// Train until global_step reaches this (nothing when it already has). Not with steps.
  std::optional<std::int64_t> max_steps{};
  /// Callbacks run during training (tf's hooks).
  std::vector<callbacks::CallbackRef> hooks{};
  /// Called after each checkpoint is saved, with its path and global step (tf's saving_listeners).
  std::vector<std::function<void(const std::string& path, std::int64_t step)>> saving_listeners{};
};

struct EvaluateArgs {
  /// Batches to evaluate (default: until input_fn's data ends).
  std::optional<std::int64_t> steps{};
  /// Evaluations of different data: summaries go to model_dir/eval_<name>.
  std::string name{};
};

struct PredictArgs {
  /// Only these predictions (default: all).
  std::vector<std::string> predict_keys{};
};

class Estimator {
 public:
  explicit Estimator(ModelFn model_fn, EstimatorOptions options = {});
  virtual ~Estimator();
  Estimator(const Estimator&) = delete;
  Estimator& operator=(const Estimator&) = delete;

  Estimator& train(const InputFn& input_fn, TrainArgs args = {});
  /// The loss and eval_metric_ops over input_fn's data, and "global_step".
  std::map<std::string, double> evaluate(const InputFn& input_fn, EvaluateArgs args = {});
  /// Every prediction (or predict_keys) for input_fn's features, rows in input order.
  std::map<std::string, Tensor> predict(const InputFn& input_fn, PredictArgs args = {});

  const std::string& model_dir() const { return model_dir_; }
  const RunConfig& config() const { return config_; }
  const json& params() const { return params_; }
  /// The newest checkpoint in model_dir, if any.
  std::optional<std::string> latest_checkpoint() const;
  /// The global step of the newest checkpoint (0 without one).
  std::int64_t global_step() const;
  /// The Model built for `mode` (null before the first call in that mode).
  std::shared_ptr<Model> model(ModeKeys mode) const;

  /// The global step stored in a checkpoint's file name (model.ckpt-<step>.h5).
  static std::int64_t step_of(const std::string& checkpoint_path);

 protected:
  /// The mode's model, compiled for TRAIN and EVAL, from input_fn's features (sorted by key) and labels
  /// (undefined spec: none). Estimator calls model_fn; model_to_estimator's estimator uses its model.
  struct Graph {
    std::shared_ptr<Model> model;
    std::vector<std::string> output_keys;  // PREDICT: the name of each output
  };
  virtual Graph build_graph(ModeKeys mode, const data::ElementSpec& features, const std::optional<data::TensorSpec>& labels);
  /// The feature name a Dataset's plain-Tensor features get ("x"; a Keras model's single input name).
  virtual std::string single_feature_key() const { return "x"; }
  /// Saves the current weights of the TRAIN model as a checkpoint at `step` (model_to_estimator's warm start).
  void save_initial_checkpoint(const std::shared_ptr<Model>& model);

 private:
  struct ModeState;
  ModelFn model_fn_;
  std::string model_dir_;
  RunConfig config_;
  json params_;
  std::map<ModeKeys, std::shared_ptr<ModeState>> modes_;
  std::map<std::string, std::shared_ptr<summary::SummaryWriter>> writers_;  // one event file per directory
  std::shared_ptr<summary::SummaryWriter> writer(const std::string& dir);
  ModeState& state_for(ModeKeys mode, const data::Dataset& dataset);
  void load_latest(ModeState& state, ModeKeys mode);
};

}  // namespace keras::estimator
