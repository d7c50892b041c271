// Trainer::fit, evaluate and predict: one loop each over a DataAdapter (arrays or a Dataset), firing
// the callback hooks. The loops know no particular callback: the progress bar and History come from
// CallbackList::with_defaults.
#include <cmath>
#include <cstring>
#include <utility>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/model.hpp"
#include "keras/ops/math.hpp"
#include "keras/trainers/array_data_adapter.hpp"
#include "keras/trainers/dataset_adapter.hpp"
#include "keras/trainers/replica_batches.hpp"
#include "keras/trainers/replica_sync.hpp"
#include "keras/trainers/trainer.hpp"
#include "keras/trainers/worker_callbacks.hpp"

namespace keras {
namespace {

void check_has_targets(const Batch& b, const char* what) {
  if (b.y.empty())
    throw ValueError(std::string(what) + "() needs (x, y) batches, but the Dataset yields x only; map it to (x, y) tuples");
}

// Keras's class_weight: each sample weighs as its class (the integer label, or the argmax of a
// one-hot row), times its own sample weight when one is given.
void apply_class_weight(Batch& b, const std::map<std::int64_t, double>& class_weight, const std::string& model) {
  if (class_weight.empty()) return;
  if (b.y.size() != 1)
    throw ValueError("Model '" + model + "': class_weight is only supported for models with a single output; give "
                     "sample_weight per output instead");
  const Tensor& y = b.y[0];
  Tensor labels = (y.ndim() >= 2 && y.dim(-1) > 1) ? ops::argmax(y) : y.reshape({y.dim(0)}).astype(DType::int64);
  const Tensor given = b.sample_weight.empty() ? Tensor() : b.sample_weight[0];
  Tensor w = given.defined() ? given.astype(DType::float32).clone() : Tensor::ones({y.dim(0)});
  if (labels.size() != w.size())
    throw ValueError("class_weight needs one label per sample; y has shape " + shape_str(y.shape()));
  const Tensor ids = labels.astype(DType::int64);
  for (std::int64_t i = 0; i < ids.size(); ++i) {
    auto it = class_weight.find(ids.data<std::int64_t>()[i]);
    if (it == class_weight.end())
      throw ValueError("class_weight has no entry for class " + std::to_string(ids.data<std::int64_t>()[i]) +
                       "; give a weight for every class that appears in y");
    w.data<float>()[i] *= static_cast<float>(it->second);
  }
  b.sample_weight = {w};
}

// Each output's batches stacked along the batch dimension.
std::vector<Tensor> concatenate_batches(const std::vector<std::vector<Tensor>>& batches, const std::string& model) {
  std::vector<Tensor> out;
  if (batches.empty()) return out;
  for (std::size_t k = 0; k < batches[0].size(); ++k) {
    std::int64_t n = 0;
    for (const auto& b : batches) n += b.at(k).dim(0);
    Shape shape = batches[0][k].shape();
    shape[0] = n;
    Tensor t = Tensor::empty(shape, batches[0][k].dtype());
    char* dst = t.dtype() == DType::string ? nullptr : static_cast<char*>(t.raw_data());
    std::int64_t at = 0;  // elements written (strings are objects, copied one by one)
    for (const auto& b : batches) {
      if (b[k].shape().size() != shape.size() || !std::equal(shape.begin() + 1, shape.end(), b[k].shape().begin() + 1) ||
          b[k].dtype() != t.dtype())
        throw ValueError("predict(): output " + std::to_string(k) + " of model '" + model + "' changes shape or dtype "
                         "between batches (" + shape_str(batches[0][k].shape()) + " then " + shape_str(b[k].shape()) + ")");
      if (t.dtype() == DType::string) {
        std::copy(b[k].data<std::string>(), b[k].data<std::string>() + b[k].size(), t.data<std::string>() + at);
      } else {
        std::memcpy(dst, b[k].raw_data(), b[k].nbytes());
        dst += b[k].nbytes();
      }
      at += b[k].size();
    }
    out.push_back(t);
  }
  return out;
}

// Under a distribution strategy a worker (not the chief) neither prints nor writes files.
int replica_verbose(int verbose) {
  const ReplicaSync* sync = active_replica_sync();
  return sync && !sync->is_chief() ? 0 : verbose;
}

// One step of a loop on this replica's part of a global batch (from ReplicaBatches, which set the step's
// rows), its logs aggregated over the replicas (`rows_seen`: the rows this replica has seen in this
// pass, the weight of its running means); `metrics` gives the metrics behind the logs once the step ran.
template <class Step, class Metrics>
Logs replica_step(ReplicaSync& sync, const Batch& local, std::int64_t& rows_seen, bool& stop, Step step,
                  Metrics metrics) {
  const std::int64_t rows = batch_rows(local);
  sync.on_step_begin();
  Logs logs = step(local);
  sync.on_step_end();
  sync.set_step_rows(0, 0);
  rows_seen += rows;
  return sync.aggregate(logs, double(rows_seen), stop, metrics());
}

}  // namespace

std::unique_ptr<DataAdapter> Trainer::adapter(Model& model, const data::Dataset& dataset,
                                              std::optional<std::int64_t> steps, const char* what, bool carry_over) const {
  auto resolve = [&model](const Arrays& x, const Arrays& y, const Arrays& w) { return resolve_batch(model, x, y, w); };
  return std::make_unique<DatasetAdapter>(dataset, resolve, steps, what, carry_over);
}

std::unique_ptr<DataAdapter> Trainer::validation_adapter(Model& model, const ValidationSource& v,
                                                         const FitOptions& o) const {
  if (const auto* a = std::get_if<ValidationData>(&v))
    return std::make_unique<ArrayDataAdapter>(resolve_batch(model, a->x, a->y, a->sample_weight),
                                              o.validation_batch_size.value_or(o.batch_size), false);
  return adapter(model, std::get<data::Dataset>(v), o.validation_steps, "validation_steps", false);
}

callbacks::History Trainer::fit(Model& model, const Arrays& x, const Arrays& y, FitOptions o) {
  check_compiled(model, "fit");
  Batch data = resolve_batch(model, x, y, o.sample_weight);
  if (o.validation_split < 0.0 || o.validation_split >= 1.0)
    throw ValueError("validation_split must be in [0, 1), got " + std::to_string(o.validation_split));
  const auto n = data.x[0].dim(0);
  std::unique_ptr<DataAdapter> val;
  if (o.validation_split > 0.0 && !o.validation_data) {
    const auto split_at = static_cast<std::int64_t>(std::floor(double(n) * (1.0 - o.validation_split)));
    if (split_at == 0 || split_at == n)
      throw ValueError("validation_split=" + std::to_string(o.validation_split) + " leaves no samples for training or "
                       "validation out of " + std::to_string(n));
    val = std::make_unique<ArrayDataAdapter>(data.rows(split_at, n), o.validation_batch_size.value_or(o.batch_size), false);
    data = data.rows(0, split_at);
  } else if (o.validation_data) {
    val = validation_adapter(model, *o.validation_data, o);
  }
  if (data.x[0].dim(0) == 0)
    throw ValueError("fit() received no training samples (x has shape " + shape_str(data.x[0].shape()) + ")");
  ArrayDataAdapter batches(std::move(data), o.batch_size, o.shuffle);
  return run_fit_loop(model, batches, val.get(), o);
}

callbacks::History Trainer::fit(Model& model, const data::Dataset& dataset, const FitOptions& o) {
  check_compiled(model, "fit");
  if (o.validation_split > 0.0)
    throw ValueError("validation_split is only supported for arrays; give validation_data as a Dataset instead");
  auto batches = adapter(model, dataset, o.steps_per_epoch, "steps_per_epoch", true);
  auto val = o.validation_data ? validation_adapter(model, *o.validation_data, o) : nullptr;
  return run_fit_loop(model, *batches, val.get(), o);
}

// The epoch loop shared by arrays and Datasets.
callbacks::History Trainer::run_fit_loop(Model& model, DataAdapter& train_data, DataAdapter* val, const FitOptions& o) {
  if (o.epochs < 0 || o.initial_epoch < 0) throw ValueError("epochs and initial_epoch must be >= 0");
  auto history = std::make_shared<callbacks::History>();
  ReplicaSync* sync = active_replica_sync();
  std::optional<ReplicaBatches> replica_batches;  // this replica's part of each step
  if (sync) replica_batches.emplace(train_data, *sync, train_data.auto_shard_policy());
  DataAdapter& train = sync ? *replica_batches : train_data;
  auto cbs = callbacks::CallbackList::with_defaults(sync && !sync->is_chief() ? worker_callbacks(o.callbacks) : o.callbacks,
                                                    replica_verbose(o.verbose), history);
  cbs.set_model(&model);
  cbs.set_params({.epochs = o.epochs, .steps = train.steps(), .verbose = o.verbose, .samples = train.samples(),
                  .batch_size = o.batch_size});

  model.stop_training = false;
  model.resume_from.reset();
  Logs logs;
  cbs.on_train_begin(logs);
  const std::optional<Model::ResumePoint> resume = std::exchange(model.resume_from, std::nullopt);
  for (int epoch = resume ? resume->epoch : o.initial_epoch; epoch < o.epochs && !model.stop_training; ++epoch) {
    reset_metrics();
    if (sync) sync->agree_random_state();  // every replica draws the chief's sample order
    train.start_epoch();
    if (sync) sync->diverge_random_state();
    Logs epoch_logs;
    cbs.on_epoch_begin(epoch, epoch_logs);
    // A resumed epoch (BackupAndRestore) skips the batches it had already trained on.
    const std::int64_t first_step = resume && epoch == resume->epoch ? resume->step : 0;
    std::int64_t step = 0, rows_seen = 0;
    for (; step < first_step && train.next(); ++step) {
    }
    for (std::optional<Batch> b; (b = train.next()); ++step) {
      if (batch_rows(*b) > 0) {  // a replica may have no rows in a step
        check_has_targets(*b, "fit");
        apply_class_weight(*b, o.class_weight, model.name());
      }
      Logs batch_logs;
      cbs.on_train_batch_begin(step, batch_logs);
      if (sync)
        batch_logs = replica_step(*sync, *b, rows_seen, model.stop_training, [&](const Batch& local) {
          sync_replica_model(model, local, *sync);  // before an overridden train_step too
          return model.train_step(local);
        }, [this] { return logged_metrics(); });
      else
        batch_logs = model.train_step(*b);
      cbs.on_train_batch_end(step, batch_logs);
      epoch_logs = batch_logs;
      if (model.stop_training) break;
    }
    if (step == 0 && epoch == o.initial_epoch && !train.ran_out())
      throw ValueError("fit() received no training batches: the Dataset is empty");
    if (train.ran_out()) model.stop_training = true;  // Keras: "Your input ran out of data; interrupting training"
    if (step == 0) break;
    if (val && o.validation_freq.runs_after(epoch)) {
      const Logs val_logs = run_test_loop(model, *val, cbs);
      for (const auto& [k, v] : val_logs) epoch_logs["val_" + k] = v;
    }
    cbs.on_epoch_end(epoch, epoch_logs);
    if (sync) sync->aggregate(Logs{}, 0.0, model.stop_training);  // a stop on one replica stops them all
  }
  cbs.on_train_end(logs);
  if (sync) sync->agree_random_state();  // Datasets built after fit draw the same seeds on every replica
  return *history;
}

Logs Trainer::run_test_loop(Model& model, DataAdapter& test_data, callbacks::CallbackList& cbs) {
  ReplicaSync* sync = active_replica_sync();
  std::optional<ReplicaBatches> replica_batches;  // this replica's part of each step
  if (sync) replica_batches.emplace(test_data, *sync, test_data.auto_shard_policy());
  DataAdapter& data = sync ? *replica_batches : test_data;
  data.start_epoch();
  reset_metrics();
  Logs logs;
  cbs.on_test_begin(logs);
  if (sync) sync->sync_model(model, optimizer_);  // evaluate before any fit: the chief's weights too
  std::int64_t step = 0, rows_seen = 0;
  bool stop = false;
  for (std::optional<Batch> b; (b = data.next()); ++step) {
    if (batch_rows(*b) > 0) check_has_targets(*b, "evaluate");
    Logs batch_logs;
    cbs.on_test_batch_begin(step, batch_logs);
    if (sync)
      batch_logs = replica_step(*sync, *b, rows_seen, stop, [&](const Batch& local) {
        // Fewer rows than replicas: this one has none this step and only takes part in the aggregation.
        return batch_rows(local) > 0 ? model.test_step(local) : this->logs();
      }, [this] { return logged_metrics(); });
    else
      batch_logs = model.test_step(*b);
    cbs.on_test_batch_end(step, batch_logs);
    logs = batch_logs;
  }
  cbs.on_test_end(logs);
  return logs;
}

Logs Trainer::evaluate(Model& model, const Arrays& x, const Arrays& y, const EvaluateOptions& o) {
  check_compiled(model, "evaluate");
  ArrayDataAdapter batches(resolve_batch(model, x, y, o.sample_weight), o.batch_size, false);
  auto cbs = callbacks::CallbackList::with_defaults(o.callbacks, replica_verbose(o.verbose), nullptr);
  cbs.set_model(&model);
  cbs.set_params({.epochs = 1, .steps = batches.steps(), .verbose = o.verbose});
  return run_test_loop(model, batches, cbs);
}

Logs Trainer::evaluate(Model& model, const data::Dataset& dataset, const EvaluateOptions& o) {
  check_compiled(model, "evaluate");
  auto batches = adapter(model, dataset, o.steps, "steps", false);
  auto cbs = callbacks::CallbackList::with_defaults(o.callbacks, replica_verbose(o.verbose), nullptr);
  cbs.set_model(&model);
  cbs.set_params({.epochs = 1, .steps = batches->steps(), .verbose = o.verbose});
  return run_test_loop(model, *batches, cbs);
}

std::vector<Tensor> Trainer::predict(Model& model, const Arrays& x, const PredictOptions& o) {
  ArrayDataAdapter batches(resolve_batch(model, x, {}, {}), o.batch_size, false);
  if (batches.samples() == 0)
    throw ValueError("predict() received no samples (x has 0 rows) for model '" + model.name() + "'");
  return run_predict_loop(model, batches, o);
}

std::vector<Tensor> Trainer::predict(Model& model, const data::Dataset& dataset, const PredictOptions& o) {
  auto batches = adapter(model, dataset, o.steps, "steps", false);
  auto out = run_predict_loop(model, *batches, o);
  if (out.empty()) throw ValueError("predict() received an empty Dataset for model '" + model.name() + "'");
  return out;
}

std::vector<Tensor> Trainer::run_predict_loop(Model& model, DataAdapter& predict_data, const PredictOptions& o) {
  // Under a strategy each replica predicts its rows of every batch (always split by data, as tf.keras
  // does, so that the outputs come back in order) and every replica gets all of them.
  ReplicaSync* sync = active_replica_sync();
  std::optional<ReplicaBatches> replica_batches;
  if (sync) replica_batches.emplace(predict_data, *sync, data::AutoShardPolicy::DATA);
  DataAdapter& data = sync ? *replica_batches : predict_data;
  auto cbs = callbacks::CallbackList::with_defaults(o.callbacks, replica_verbose(o.verbose), nullptr);
  cbs.set_model(&model);
  cbs.set_params({.epochs = 1, .steps = data.steps(), .verbose = o.verbose});
  Logs logs;
  cbs.on_predict_begin(logs);
  data.start_epoch();
  std::vector<std::vector<Tensor>> batches;  // per batch (per replica's rows of it), per output
  autodiff::NoGradScope no_grad;
  if (sync) sync->sync_model(model, optimizer_);  // the chief's weights, as evaluate
  std::int64_t step = 0;
  for (std::optional<Batch> b; (b = data.next()); ++step) {
    Logs batch_logs;
    cbs.on_predict_batch_begin(step, batch_logs);
    if (sync) {
      const auto parts = sync->gather(batch_rows(*b) > 0 ? model.predict_step(b->x) : std::vector<Tensor>{});
      batches.insert(batches.end(), parts.begin(), parts.end());
    } else {
      batches.push_back(model.predict_step(b->x));
    }
    cbs.on_predict_batch_end(step, batch_logs);
  }
  cbs.on_predict_end(logs);
  return concatenate_batches(batches, model.name());
}

}  // namespace keras
