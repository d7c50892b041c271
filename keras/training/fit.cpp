// Model::fit, evaluate and predict: one loop each over a BatchSource (arrays or a Dataset), firing
// the callback hooks.
#include <cmath>
#include <cstring>
#include <utility>

#include "callbacks/progbar_logger.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/model.hpp"
#include "keras/ops/math.hpp"
#include "keras/training/array_batcher.hpp"
#include "keras/training/compiled_metrics.hpp"
#include "keras/training/dataset_batcher.hpp"

namespace keras {
namespace {

// The user's callbacks plus Keras's defaults: the progress bar first, History last.
callbacks::CallbackList make_callbacks(const std::vector<callbacks::CallbackRef>& user, int verbose,
                                       std::shared_ptr<callbacks::History> history) {
  callbacks::CallbackList list(user);
  if (verbose) list.add_front(std::make_shared<callbacks::ProgbarLogger>());
  if (history) list.add(history);
  return list;
}

// Keras's class_weight: each sample weighs as its class (the integer label, or the argmax of a
// one-hot row), times its own sample weight when one is given.
Tensor with_class_weight(const Tensor& y, const Tensor& sample_weight, const std::map<std::int64_t, double>& class_weight) {
  if (class_weight.empty()) return sample_weight;
  Tensor labels = (y.ndim() >= 2 && y.dim(-1) > 1) ? ops::argmax(y) : y.reshape({y.dim(0)}).astype(DType::int64);
  Tensor w = sample_weight.defined() ? sample_weight.astype(DType::float32).clone() : Tensor::ones({y.dim(0)});
  if (labels.astype(DType::float32).size() != w.size())
    throw ValueError("class_weight needs one label per sample; y has shape " + shape_str(y.shape()));
  const Tensor ids = labels.astype(DType::int64);
  for (std::int64_t i = 0; i < ids.size(); ++i) {
    auto it = class_weight.find(ids.data<std::int64_t>()[i]);
    if (it == class_weight.end())
      throw ValueError("class_weight has no entry for class " + std::to_string(ids.data<std::int64_t>()[i]) +
                       "; give a weight for every class that appears in y");
    w.data<float>()[i] *= static_cast<float>(it->second);
  }
  return w;
}

std::unique_ptr<BatchSource> validation_source(const ValidationSource& v, const FitOptions& o) {
  if (const auto* a = std::get_if<ValidationData>(&v))
    return std::make_unique<ArrayBatcher>(a->x, a->y, a->sample_weight, o.validation_batch_size.value_or(o.batch_size), false);
  return std::make_unique<DatasetBatcher>(std::get<data::Dataset>(v), o.validation_steps, "validation_steps", false);
}

void check_has_targets(const Batch& b, const char* what) {
  if (!b.y.defined())
    throw ValueError(std::string(what) + "() needs (x, y) batches, but the Dataset yields x only; map it to (x, y) tuples");
}

}  // namespace

void Model::build_from_data(const Tensor& x) {
  if (!built()) ensure_built(x.shape());
}

callbacks::History Model::fit(const Tensor& x, const Tensor& y, FitOptions o) {
  check_compiled("fit");
  check_same_samples(x, y, o.sample_weight);
  if (o.validation_split < 0.0 || o.validation_split >= 1.0)
    throw ValueError("validation_split must be in [0, 1), got " + std::to_string(o.validation_split));

  Tensor train_x = x, train_y = y, train_w = o.sample_weight;
  if (o.validation_split > 0.0 && !o.validation_data) {
    const auto n = x.dim(0);
    const auto split_at = static_cast<std::int64_t>(std::floor(double(n) * (1.0 - o.validation_split)));
    if (split_at == 0 || split_at == n)
      throw ValueError("validation_split=" + std::to_string(o.validation_split) + " leaves no samples for training or "
                       "validation out of " + std::to_string(n));
    o.validation_data = ValidationData{x.slice(split_at, n), y.slice(split_at, n),
                                       o.sample_weight.defined() ? o.sample_weight.slice(split_at, n) : Tensor()};
    train_x = x.slice(0, split_at);
    train_y = y.slice(0, split_at);
    if (train_w.defined()) train_w = train_w.slice(0, split_at);
  }
  if (train_x.dim(0) == 0) throw ValueError("fit() received no training samples (x has shape " + shape_str(x.shape()) + ")");

  ArrayBatcher batches(train_x, train_y, train_w, o.batch_size, o.shuffle);
  build_from_data(train_x);
  auto val = o.validation_data ? validation_source(*o.validation_data, o) : nullptr;
  return run_fit_loop(batches, val.get(), o);
}

callbacks::History Model::fit(const data::Dataset& dataset, FitOptions o) {
  check_compiled("fit");
  if (o.validation_split > 0.0)
    throw ValueError("validation_split is only supported for arrays; give validation_data as a Dataset instead");
  DatasetBatcher batches(dataset, o.steps_per_epoch, "steps_per_epoch", true);
  auto val = o.validation_data ? validation_source(*o.validation_data, o) : nullptr;
  return run_fit_loop(batches, val.get(), o);
}

// The epoch loop shared by arrays and Datasets.
callbacks::History Model::run_fit_loop(BatchSource& train, BatchSource* val, const FitOptions& o) {
  if (o.epochs < 0 || o.initial_epoch < 0) throw ValueError("epochs and initial_epoch must be >= 0");
  auto history = std::make_shared<callbacks::History>();
  auto cbs = make_callbacks(o.callbacks, o.verbose, history);
  cbs.set_model(this);
  cbs.set_params({.epochs = o.epochs, .steps = train.steps(), .verbose = o.verbose, .samples = train.samples(),
                  .batch_size = o.batch_size});

  stop_training = false;
  resume_from.reset();
  Logs logs;
  cbs.on_train_begin(logs);
  const std::optional<ResumePoint> resume = std::exchange(resume_from, std::nullopt);
  for (int epoch = resume ? resume->epoch : o.initial_epoch; epoch < o.epochs && !stop_training; ++epoch) {
    reset_metrics();
    train.start_epoch();
    Logs epoch_logs;
    cbs.on_epoch_begin(epoch, epoch_logs);
    // A resumed epoch (BackupAndRestore) skips the batches it had already trained on.
    const std::int64_t first_step = resume && epoch == resume->epoch ? resume->step : 0;
    std::int64_t step = 0;
    for (; step < first_step && train.next(); ++step) {
    }
    for (std::optional<Batch> b; (b = train.next()); ++step) {
      check_has_targets(*b, "fit");
      build_from_data(b->x);
      Logs batch_logs;
      cbs.on_train_batch_begin(step, batch_logs);
      batch_logs = train_step(b->x, b->y, with_class_weight(b->y, b->sample_weight, o.class_weight));
      cbs.on_train_batch_end(step, batch_logs);
      epoch_logs = batch_logs;
      if (stop_training) break;
    }
    if (step == 0 && epoch == o.initial_epoch && !train.ran_out())
      throw ValueError("fit() received no training batches: the Dataset is empty");
    if (train.ran_out()) stop_training = true;  // Keras: "Your input ran out of data; interrupting training"
    if (step == 0) break;
    if (val) {
      const Logs val_logs = run_test_loop(*val, cbs);
      for (const auto& [k, v] : val_logs) epoch_logs["val_" + k] = v;
    }
    cbs.on_epoch_end(epoch, epoch_logs);
  }
  cbs.on_train_end(logs);
  return *history;
}

Logs Model::run_test_loop(BatchSource& data, callbacks::CallbackList& cbs) {
  data.start_epoch();
  reset_metrics();
  Logs logs;
  cbs.on_test_begin(logs);
  std::int64_t step = 0;
  for (std::optional<Batch> b; (b = data.next()); ++step) {
    check_has_targets(*b, "evaluate");
    build_from_data(b->x);
    Logs batch_logs;
    cbs.on_test_batch_begin(step, batch_logs);
    batch_logs = test_step(b->x, b->y, b->sample_weight);
    cbs.on_test_batch_end(step, batch_logs);
    logs = batch_logs;
  }
  cbs.on_test_end(logs);
  return logs;
}

Logs Model::evaluate(const Tensor& x, const Tensor& y, EvaluateOptions o) {
  check_compiled("evaluate");
  check_same_samples(x, y, o.sample_weight);
  build_from_data(x);
  ArrayBatcher batches(x, y, o.sample_weight, o.batch_size, false);
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = batches.steps(), .verbose = o.verbose});
  return run_test_loop(batches, cbs);
}

Logs Model::evaluate(const data::Dataset& dataset, EvaluateOptions o) {
  check_compiled("evaluate");
  DatasetBatcher batches(dataset, o.steps, "steps", false);
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = batches.steps(), .verbose = o.verbose});
  return run_test_loop(batches, cbs);
}

Tensor Model::predict(const Tensor& x, PredictOptions o) {
  ArrayBatcher batches(x, Tensor(), Tensor(), o.batch_size, false);
  if (batches.samples() == 0)
    throw ValueError("predict() received no samples (x has shape " + shape_str(x.shape()) + ") for model '" + name() + "'");
  build_from_data(x);
  return run_predict_loop(batches, o);
}

Tensor Model::predict(const data::Dataset& dataset, PredictOptions o) {
  DatasetBatcher batches(dataset, o.steps, "steps", false);
  Tensor out = run_predict_loop(batches, o);
  if (!out.defined()) throw ValueError("predict() received an empty Dataset for model '" + name() + "'");
  return out;
}

Tensor Model::run_predict_loop(BatchSource& data, const PredictOptions& o) {
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = data.steps(), .verbose = o.verbose});
  Logs logs;
  cbs.on_predict_begin(logs);
  data.start_epoch();
  std::vector<Tensor> outputs;
  std::int64_t step = 0, rows = 0;
  for (std::optional<Batch> b; (b = data.next()); ++step) {
    Logs batch_logs;
    cbs.on_predict_batch_begin(step, batch_logs);
    build_from_data(b->x);
    outputs.push_back(predict_on_batch(b->x));
    rows += outputs.back().dim(0);
    cbs.on_predict_batch_end(step, batch_logs);
  }
  cbs.on_predict_end(logs);
  if (outputs.empty()) return Tensor();
  Shape shape = outputs[0].shape();
  shape[0] = rows;
  Tensor out = Tensor::empty(shape, outputs[0].dtype());
  char* dst = static_cast<char*>(out.raw_data());
  for (const Tensor& y : outputs) {
    std::memcpy(dst, y.raw_data(), y.nbytes());
    dst += y.nbytes();
  }
  return out;
}

}  // namespace keras
