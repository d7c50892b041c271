// Estimator: model_fn graphs per mode, checkpoints in model_dir (see base_estimator.hpp).
#include "keras/estimator/base_estimator.hpp"

#include <filesystem>
#include <random>
#include <regex>

#include <fmt/format.h>

#include "callbacks/summary_writer.hpp"
#include "keras/estimator/training_hook.hpp"
#include "keras/saving/checkpoint.hpp"
#include "keras/trainers/replica_sync.hpp"
#include "keras/utils/random_seed.hpp"
#include "keras/variable.hpp"
#include "layers/core/identity.hpp"

namespace keras::estimator {
namespace fs = std::filesystem;

std::string to_string(ModeKeys mode) {
  switch (mode) {
    case ModeKeys::TRAIN: return "train";
    case ModeKeys::EVAL: return "eval";
    case ModeKeys::PREDICT: return "infer";
  }
  return "?";
}

namespace {

constexpr const char* kCheckpointName = "model.ckpt";

// The features and labels of input_fn's elements: (features, labels), (features,) or features alone;
// features a dict of tensors or one tensor (the feature "x").
struct Split {
  data::ElementSpec features;  // a dict
  std::optional<data::TensorSpec> labels;
  bool tuple = false, leaf_features = false;
  std::string leaf_key;
};

Split split_spec(const data::ElementSpec& spec, const std::string& leaf_key) {
  Split s;
  s.leaf_key = leaf_key;
  data::ElementSpec f = spec;
  if (spec.is_tuple()) {
    if (spec.size() < 1 || spec.size() > 2)
      throw ValueError("input_fn must return a Dataset of (features, labels) or features; got elements " + data::spec_str(spec));
    s.tuple = true;
    f = spec[0];
    if (spec.size() == 2) {
      if (!spec[1].is_leaf()) throw ValueError("Estimator: labels must be one tensor; got " + data::spec_str(spec[1]));
      s.labels = spec[1].leaf();
      if (s.labels->shape.size() == 1) s.labels->shape.push_back(1);
    }
  }
  if (f.is_leaf()) {
    s.leaf_features = true;
    f = data::ElementSpec::dict({{leaf_key, f}});
  }
  if (!f.is_dict()) throw ValueError("Estimator: features must be a map name -> Tensor or one Tensor; got " + data::spec_str(f));
  std::vector<std::pair<std::string, data::ElementSpec>> items;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!f.children()[i].is_leaf()) throw ValueError("Estimator: feature '" + f.keys()[i] + "' must be one tensor");
    data::TensorSpec t = f.children()[i].leaf();
    if (t.shape.size() == 1) t.shape.push_back(1);  // [batch] is read as [batch, 1]
    if (t.shape.empty()) throw ValueError("Estimator: feature '" + f.keys()[i] + "' has no batch dimension; batch the Dataset");
    items.emplace_back(f.keys()[i], t);
  }
  s.features = data::ElementSpec::dict(items);
  return s;
}

// input_fn's Dataset as (features dict, labels) batches, or the features dict alone.
data::Dataset normalized(const data::Dataset& ds, const Split& split, bool keep_labels) {
  return ds.map([split, keep_labels](const data::Element& e) {
    const data::Element f = split.tuple ? e[0] : e;
    std::vector<std::pair<std::string, data::Element>> items;
    auto add = [&](const std::string& key, const data::Component& c) {
      const Tensor& t = c.tensor();
      items.emplace_back(key, data::Element(data::Component(t.ndim() == 1 ? t.reshape({t.dim(0), 1}) : t)));
    };
    if (split.leaf_features) add(split.leaf_key, f.leaf());
    else for (std::size_t i = 0; i < f.size(); ++i) add(f.keys()[i], f.children()[i].leaf());
    data::Element features = data::named(std::move(items));
    if (keep_labels && split.labels) {  // [batch] labels as [batch, 1], as tf's heads read them
      const Tensor& y = e[1].leaf().tensor();
      return data::tuple({features, data::Element(data::Component(y.ndim() == 1 ? y.reshape({y.dim(0), 1}) : y))});
    }
    return features;
  });
}

// Steps a finite Dataset still has (nullopt: unknown or infinite).
std::optional<std::int64_t> finite_cardinality(const data::Dataset& ds) {
  const std::int64_t c = ds.cardinality();
  return c >= 0 ? std::optional<std::int64_t>(c) : std::nullopt;
}

struct SyncScope {  // the strategy is active while training, as in its scope
  explicit SyncScope(ReplicaSync* sync) : active(sync != nullptr), previous(sync ? set_active_replica_sync(sync) : nullptr) {}
  ~SyncScope() {
    if (active) set_active_replica_sync(previous);
  }
  bool active;
  ReplicaSync* previous;
};

}  // namespace

struct Estimator::ModeState {
  Graph graph;
  std::string loaded;  // the checkpoint the model holds ("" : its initial weights)
  std::shared_ptr<Variable> global_step;
  std::unique_ptr<train::Checkpoint> checkpoint;
  std::unique_ptr<train::CheckpointManager> manager;
};

Estimator::Estimator(ModelFn model_fn, EstimatorOptions options)
    : model_fn_(std::move(model_fn)), config_(std::move(options.config)), params_(std::move(options.params)) {
  if (!options.model_dir.empty() && !config_.model_dir.empty() &&
      fs::path(options.model_dir).lexically_normal() != fs::path(config_.model_dir).lexically_normal())
    throw ValueError("Estimator: model_dir '" + options.model_dir + "' differs from RunConfig.model_dir '" +
                     config_.model_dir + "'; give one");
  model_dir_ = !options.model_dir.empty() ? options.model_dir : config_.model_dir;
  if (model_dir_.empty()) {  // tf: a new temporary directory
    std::random_device rd;
    model_dir_ = (fs::temp_directory_path() / fmt::format("kerascpp_estimator_{:08x}", rd())).string();
  }
  config_.model_dir = model_dir_;
  if (config_.save_checkpoints_steps && config_.save_checkpoints_secs)
    throw ValueError("RunConfig: give save_checkpoints_steps or save_checkpoints_secs, not both");
  if (config_.keep_checkpoint_max < 0) throw ValueError("RunConfig: keep_checkpoint_max must be >= 0 (0 keeps all)");
  fs::create_directories(model_dir_);
}

Estimator::~Estimator() = default;

std::optional<std::string> Estimator::latest_checkpoint() const { return train::latest_checkpoint(model_dir_); }

std::int64_t Estimator::global_step() const {
  auto latest = latest_checkpoint();
  return latest ? step_of(*latest) : 0;
}

std::int64_t Estimator::step_of(const std::string& checkpoint_path) {
  static const std::regex re(R"(-(\d+)\.h5$)");
  std::smatch m;
  const std::string name = fs::path(checkpoint_path).filename().string();
  if (!std::regex_search(name, m, re)) throw IOError("'" + checkpoint_path + "' is not named model.ckpt-<global_step>.h5");
  return std::stoll(m[1].str());
}

std::shared_ptr<Model> Estimator::model(ModeKeys mode) const {
  auto it = modes_.find(mode);
  return it == modes_.end() ? nullptr : it->second->graph.model;
}

Estimator::Graph Estimator::build_graph(ModeKeys mode, const data::ElementSpec& features,
                                        const std::optional<data::TensorSpec>& labels) {
  if (!model_fn_) throw ValueError("Estimator: model_fn is empty");
  if (config_.tf_random_seed) utils::set_random_seed(*config_.tf_random_seed);
  Features inputs;
  std::vector<KerasTensor> input_list;
  for (std::size_t i = 0; i < features.size(); ++i) {
    const auto& t = features.children()[i].leaf();
    const Shape shape(t.shape.begin() + 1, t.shape.end());
    KerasTensor in = Input(shape, {.name = features.keys()[i], .dtype = dtype_from_name(t.dtype)});
    inputs[features.keys()[i]] = in;
    input_list.push_back(in);
  }
  KerasTensor label_tensor;
  if (labels) label_tensor = Input(Shape(labels->shape.begin() + 1, labels->shape.end()), {.dtype = dtype_from_name(labels->dtype)});
  const EstimatorSpec spec = model_fn_(inputs, label_tensor, mode, params_);
  if (spec.predictions.empty()) throw ValueError("model_fn returned an EstimatorSpec without predictions");
  Graph graph;
  if (mode == ModeKeys::PREDICT) {
    std::vector<KerasTensor> outputs;
    for (const auto& [key, t] : spec.predictions) {
      outputs.push_back(layers::Identity({.name = key})(t));
      graph.output_keys.push_back(key);
    }
    graph.model = std::make_shared<Model>(input_list, outputs, "estimator_" + to_string(mode));
    return graph;
  }
  std::string key = spec.loss_output;
  if (key.empty()) key = spec.predictions.size() == 1 ? spec.predictions.begin()->first : "logits";
  auto it = spec.predictions.find(key);
  if (it == spec.predictions.end())
    throw ValueError("model_fn: the loss compares the labels with prediction '" + key + "', which predictions lacks; set "
                     "EstimatorSpec::loss_output");
  if (!spec.loss) throw ValueError("model_fn must return a loss in mode " + to_string(mode));
  if (mode == ModeKeys::TRAIN && !spec.train_op) throw ValueError("model_fn must return a train_op in mode train");
  graph.model = std::make_shared<Model>(input_list, std::vector<KerasTensor>{it->second}, "estimator_" + to_string(mode));
  graph.output_keys = {key};
  graph.model->compile({.optimizer = spec.train_op.value_or(optimizers::OptimizerRef("sgd")),
                        .loss = *spec.loss,
                        .metrics = mode == ModeKeys::EVAL ? MetricsSpec(spec.eval_metric_ops) : MetricsSpec()});
  return graph;
}

Estimator::ModeState& Estimator::state_for(ModeKeys mode, const data::Dataset& dataset) {
  auto& slot = modes_[mode];
  if (slot) return *slot;
  const Split split = split_spec(dataset.element_spec(), single_feature_key());
  if (mode != ModeKeys::PREDICT && !split.labels)
    throw ValueError("Estimator::" + std::string(mode == ModeKeys::TRAIN ? "train" : "evaluate") +
                     ": input_fn must return (features, labels) batches");
  auto state = std::make_shared<ModeState>();
  state->graph = build_graph(mode, split.features, split.labels);
  if (mode == ModeKeys::TRAIN) {
    state->global_step = std::make_shared<Variable>("global_step", Tensor::full({}, 0, DType::int64), false);
    state->checkpoint = std::make_unique<train::Checkpoint>(
        *state->graph.model, train::CheckpointOptions{.variables = {{"global_step", state->global_step}}});
    state->manager = std::make_unique<train::CheckpointManager>(
        *state->checkpoint, model_dir_,
        train::CheckpointManagerOptions{
            .max_to_keep = config_.keep_checkpoint_max > 0 ? std::optional<int>(config_.keep_checkpoint_max) : std::nullopt,
            .checkpoint_name = kCheckpointName});
  }
  slot = state;
  return *slot;
}

void Estimator::load_latest(ModeState& state, ModeKeys mode) {
  const auto latest = latest_checkpoint();
  if (!latest) {
    if (mode != ModeKeys::TRAIN)
      throw ValueError("Could not find trained model in model_dir: " + model_dir_ + " (train() first)");
    return;
  }
  if (*latest == state.loaded) return;
  if (mode == ModeKeys::TRAIN) state.checkpoint->restore(*latest);
  else state.graph.model->load_weights(*latest);
  state.loaded = *latest;
}

void Estimator::save_initial_checkpoint(const std::shared_ptr<Model>& model) {
  if (latest_checkpoint()) return;
  auto step = std::make_shared<Variable>("global_step", Tensor::full({}, 0, DType::int64), false);
  train::Checkpoint checkpoint(*model, {.variables = {{"global_step", step}}});
  train::CheckpointManager manager(checkpoint, model_dir_, {.checkpoint_name = kCheckpointName});
  manager.save(0);
}

std::shared_ptr<summary::SummaryWriter> Estimator::writer(const std::string& dir) {
  auto& w = writers_[dir];
  if (!w) w = summary::create_file_writer(dir);
  return w;
}

Estimator& Estimator::train(const InputFn& input_fn, TrainArgs args) {
  if (args.steps && args.max_steps) throw ValueError("Estimator::train: give steps or max_steps, not both");
  if ((args.steps && *args.steps <= 0) || (args.max_steps && *args.max_steps <= 0))
    throw ValueError("Estimator::train: steps and max_steps must be positive");
  const data::Dataset raw = input_fn();
  ModeState& state = state_for(ModeKeys::TRAIN, raw);
  load_latest(state, ModeKeys::TRAIN);
  const std::int64_t start = static_cast<std::int64_t>(state.global_step->value().item());
  std::optional<std::int64_t> to_run = args.steps;
  if (args.max_steps) {
    if (start >= *args.max_steps) return *this;  // tf: "Skipping training since max_steps has already saved"
    to_run = *args.max_steps - start;
  }
  const data::Dataset ds = normalized(raw, split_spec(raw.element_spec(), single_feature_key()), true);
  if (auto n = finite_cardinality(ds); n && (!to_run || *n < *to_run)) to_run = *n;  // ends with the data, as tf
  if (!to_run && ds.cardinality() == data::INFINITE_CARDINALITY)
    throw ValueError("Estimator::train: input_fn's Dataset never ends; give steps or max_steps");
  if (to_run && *to_run == 0) return *this;

  ReplicaSync* sync = config_.train_distribute;
  const bool chief = !sync || sync->is_chief();
  std::shared_ptr<summary::SummaryWriter> events = chief ? writer(model_dir_) : nullptr;
  auto hook = std::make_shared<detail::TrainingHook>(
      config_, state.global_step,
      [&state, chief, &args](std::int64_t step) {
        if (chief) state.loaded = state.manager->save(step);
        for (const auto& listener : args.saving_listeners) listener(state.loaded, step);
      },
      events);
  std::vector<callbacks::CallbackRef> callbacks = args.hooks;
  callbacks.insert(callbacks.begin(), hook);
  SyncScope scope(sync);
  FitOptions fit{.epochs = 1, .verbose = 0, .callbacks = callbacks};
  fit.steps_per_epoch = to_run;
  state.graph.model->fit(ds, fit);
  return *this;
}

std::map<std::string, double> Estimator::evaluate(const InputFn& input_fn, EvaluateArgs args) {
  const data::Dataset raw = input_fn();
  ModeState& state = state_for(ModeKeys::EVAL, raw);
  load_latest(state, ModeKeys::EVAL);
  const data::Dataset ds = normalized(raw, split_spec(raw.element_spec(), single_feature_key()), true);
  std::optional<std::int64_t> steps = args.steps;
  if (auto n = finite_cardinality(ds); n && steps && *n < *steps) steps = n;  // ends with the data, as tf
  const Logs logs = state.graph.model->evaluate(ds, EvaluateOptions{.verbose = 0, .steps = steps});
  std::map<std::string, double> out;
  for (const auto& [name, value] : logs) out[name] = value;
  const std::int64_t step = step_of(state.loaded);
  const std::string dir = (fs::path(model_dir_) / (args.name.empty() ? "eval" : "eval_" + args.name)).string();
  auto events = writer(dir);
  for (const auto& [name, value] : out) events->scalar(name, value, step);
  events->flush();
  out["global_step"] = static_cast<double>(step);
  return out;
}

std::map<std::string, Tensor> Estimator::predict(const InputFn& input_fn, PredictArgs args) {
  const data::Dataset raw = input_fn();
  ModeState& state = state_for(ModeKeys::PREDICT, raw);
  load_latest(state, ModeKeys::PREDICT);
  const data::Dataset ds = normalized(raw, split_spec(raw.element_spec(), single_feature_key()), false);
  const std::vector<Tensor> outputs = state.graph.model->predict_outputs(ds);
  std::map<std::string, Tensor> out;
  for (std::size_t i = 0; i < outputs.size(); ++i) out[state.graph.output_keys[i]] = outputs[i];
  if (args.predict_keys.empty()) return out;
  std::map<std::string, Tensor> chosen;
  for (const auto& key : args.predict_keys) {
    auto it = out.find(key);
    if (it == out.end()) throw ValueError("Estimator::predict: no prediction '" + key + "'");
    chosen[key] = it->second;
  }
  return chosen;
}

}  // namespace keras::estimator
