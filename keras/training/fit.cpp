// Model::fit, evaluate and predict on arrays: the loops that fire the callback hooks.
#include <cmath>
#include <cstring>
#include <utility>

#include "callbacks/progbar_logger.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/model.hpp"
#include "keras/ops/math.hpp"
#include "keras/training/array_batcher.hpp"
#include "keras/training/compiled_metrics.hpp"

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

}  // namespace

void Model::build_from_data(const Tensor& x) {
  if (!built()) ensure_built(x.shape());
}

callbacks::History Model::fit(const Tensor& x, const Tensor& y, FitOptions o) {
  check_compiled("fit");
  check_same_samples(x, y, o.sample_weight);
  if (o.validation_split < 0.0 || o.validation_split >= 1.0)
    throw ValueError("validation_split must be in [0, 1), got " + std::to_string(o.validation_split));
  if (o.epochs < 0 || o.initial_epoch < 0) throw ValueError("epochs and initial_epoch must be >= 0");

  Tensor train_x = x, train_y = y, train_w = o.sample_weight;
  std::optional<ValidationData> val = o.validation_data;
  if (o.validation_split > 0.0 && !val) {
    const auto n = x.dim(0);
    const auto split_at = static_cast<std::int64_t>(std::floor(double(n) * (1.0 - o.validation_split)));
    if (split_at == 0 || split_at == n)
      throw ValueError("validation_split=" + std::to_string(o.validation_split) + " leaves no samples for training or "
                       "validation out of " + std::to_string(n));
    val = ValidationData{x.slice(split_at, n), y.slice(split_at, n),
                         o.sample_weight.defined() ? o.sample_weight.slice(split_at, n) : Tensor()};
    train_x = x.slice(0, split_at);
    train_y = y.slice(0, split_at);
    if (train_w.defined()) train_w = train_w.slice(0, split_at);
  }
  if (train_x.dim(0) == 0) throw ValueError("fit() received no training samples (x has shape " + shape_str(x.shape()) + ")");

  ArrayBatcher batches(train_x, train_y, train_w, o.batch_size, o.shuffle);
  build_from_data(train_x);
  auto history = std::make_shared<callbacks::History>();
  auto cbs = make_callbacks(o.callbacks, o.verbose, history);
  cbs.set_model(this);
  cbs.set_params({.epochs = o.epochs, .steps = batches.steps(), .verbose = o.verbose, .samples = batches.samples(),
                  .batch_size = o.batch_size});

  stop_training = false;
  resume_from.reset();
  Logs logs;
  cbs.on_train_begin(logs);
  const std::optional<ResumePoint> resume = std::exchange(resume_from, std::nullopt);
  for (int epoch = resume ? resume->epoch : o.initial_epoch; epoch < o.epochs && !stop_training; ++epoch) {
    reset_metrics();
    batches.start_epoch();
    Logs epoch_logs;
    cbs.on_epoch_begin(epoch, epoch_logs);
    const std::int64_t first_step = resume && epoch == resume->epoch ? resume->step : 0;
    for (std::int64_t step = first_step; step < batches.steps(); ++step) {
      Logs batch_logs;
      cbs.on_train_batch_begin(step, batch_logs);
      Batch b = batches.batch(step);
      batch_logs = train_step(b.x, b.y, with_class_weight(b.y, b.sample_weight, o.class_weight));
      cbs.on_train_batch_end(step, batch_logs);
      epoch_logs = batch_logs;
      if (stop_training) break;
    }
    if (val) {
      const Logs val_logs = run_test_loop(*val, o.validation_batch_size.value_or(o.batch_size), cbs);
      for (const auto& [k, v] : val_logs) epoch_logs["val_" + k] = v;
    }
    cbs.on_epoch_end(epoch, epoch_logs);
  }
  cbs.on_train_end(logs);
  return *history;
}

Logs Model::run_test_loop(const ValidationData& data, std::int64_t batch_size, callbacks::CallbackList& cbs) {
  ArrayBatcher batches(data.x, data.y, data.sample_weight, batch_size, false);
  reset_metrics();
  Logs logs;
  cbs.on_test_begin(logs);
  for (std::int64_t step = 0; step < batches.steps(); ++step) {
    Logs batch_logs;
    cbs.on_test_batch_begin(step, batch_logs);
    Batch b = batches.batch(step);
    batch_logs = test_step(b.x, b.y, b.sample_weight);
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
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = (x.dim(0) + o.batch_size - 1) / std::max<std::int64_t>(o.batch_size, 1),
                  .verbose = o.verbose});
  return run_test_loop({x, y, o.sample_weight}, o.batch_size, cbs);
}

Tensor Model::predict(const Tensor& x, PredictOptions o) {
  ArrayBatcher batches(x, Tensor(), Tensor(), o.batch_size, false);
  if (batches.samples() == 0)
    throw ValueError("predict() received no samples (x has shape " + shape_str(x.shape()) + ") for model '" + name() + "'");
  build_from_data(x);
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = batches.steps(), .verbose = o.verbose});
  Logs logs;
  cbs.on_predict_begin(logs);
  Tensor out;
  std::size_t row_bytes = 0;
  for (std::int64_t step = 0; step < batches.steps(); ++step) {
    Logs batch_logs;
    cbs.on_predict_batch_begin(step, batch_logs);
    Tensor y = predict_on_batch(batches.batch(step).x);
    if (!out.defined()) {
      Shape shape = y.shape();
      shape[0] = x.dim(0);
      out = Tensor::empty(shape, y.dtype());
      row_bytes = y.dim(0) ? y.nbytes() / static_cast<std::size_t>(y.dim(0)) : 0;
    }
    std::memcpy(static_cast<char*>(out.raw_data()) + static_cast<std::size_t>(step * o.batch_size) * row_bytes,
                y.raw_data(), y.nbytes());
    cbs.on_predict_batch_end(step, batch_logs);
  }
  cbs.on_predict_end(logs);
  return out;
}

}  // namespace keras
