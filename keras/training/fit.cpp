// Model::fit, evaluate and predict: one loop each over a BatchSource (arrays or a Dataset), firing
// the callback hooks.
#include <cmath>
#include <algorithm>
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

void check_has_targets(const Batch& b, const char* what) {
  if (b.y.empty())
    throw ValueError(std::string(what) + "() needs (x, y) batches, but the Dataset yields x only; map it to (x, y) tuples");
}

}  // namespace

std::unique_ptr<BatchSource> Model::array_source(const Arrays& x, const Arrays& y, const Arrays& sample_weight,
                                                 std::int64_t batch_size, bool shuffle) const {
  auto xs = resolve_inputs(x), ys = y.empty() ? std::vector<Tensor>{} : resolve_targets(y);
  auto ws = resolve_sample_weights(sample_weight);
  check_same_samples(xs, ys, ws, name());
  return std::make_unique<ArrayBatcher>(xs, ys, ws, batch_size, shuffle);
}

std::unique_ptr<BatchSource> Model::validation_source(const ValidationSource& v, const FitOptions& o) const {
  if (const auto* a = std::get_if<ValidationData>(&v))
    return array_source(a->x, a->y, a->sample_weight, o.validation_batch_size.value_or(o.batch_size), false);
  return std::make_unique<DatasetBatcher>(std::get<data::Dataset>(v), o.validation_steps, "validation_steps", false);
}

callbacks::History Model::fit(const Arrays& x, const Arrays& y, FitOptions o) {
  check_compiled("fit");
  auto xs = resolve_inputs(x);
  build_from_data(xs);  // first, so that a subclassed model's outputs are known to name y
  auto ys = resolve_targets(y), ws = resolve_sample_weights(o.sample_weight);
  check_same_samples(xs, ys, ws, name());
  if (o.validation_split < 0.0 || o.validation_split >= 1.0)
    throw ValueError("validation_split must be in [0, 1), got " + std::to_string(o.validation_split));

  const auto n = xs[0].dim(0);
  auto rows = [](const std::vector<Tensor>& ts, std::int64_t begin, std::int64_t end) {
    std::vector<Tensor> out;
    for (const auto& t : ts) out.push_back(t.defined() ? t.slice(begin, end) : Tensor());
    return out;
  };
  if (o.validation_split > 0.0 && !o.validation_data) {
    const auto split_at = static_cast<std::int64_t>(std::floor(double(n) * (1.0 - o.validation_split)));
    if (split_at == 0 || split_at == n)
      throw ValueError("validation_split=" + std::to_string(o.validation_split) + " leaves no samples for training or "
                       "validation out of " + std::to_string(n));
    o.validation_data = ValidationData{rows(xs, split_at, n), rows(ys, split_at, n),
                                       ws.empty() ? Arrays() : Arrays(rows(ws, split_at, n))};
    xs = rows(xs, 0, split_at);
    ys = rows(ys, 0, split_at);
    if (!ws.empty()) ws = rows(ws, 0, split_at);
  }
  if (xs[0].dim(0) == 0)
    throw ValueError("fit() received no training samples (x has shape " + shape_str(xs[0].shape()) + ")");

  ArrayBatcher batches(xs, ys, ws, o.batch_size, o.shuffle);
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
      Logs batch_logs;
      cbs.on_train_batch_begin(step, batch_logs);
      batch_logs = run_train_step(b->x, b->y, b->sample_weight, o.class_weight);
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
    Logs batch_logs;
    cbs.on_test_batch_begin(step, batch_logs);
    batch_logs = run_test_step(b->x, b->y, b->sample_weight);
    cbs.on_test_batch_end(step, batch_logs);
    logs = batch_logs;
  }
  cbs.on_test_end(logs);
  return logs;
}

Logs Model::evaluate(const Arrays& x, const Arrays& y, EvaluateOptions o) {
  check_compiled("evaluate");
  build_from_data(resolve_inputs(x));
  auto batches = array_source(x, y, o.sample_weight, o.batch_size, false);
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = batches->steps(), .verbose = o.verbose});
  return run_test_loop(*batches, cbs);
}

Logs Model::evaluate(const data::Dataset& dataset, EvaluateOptions o) {
  check_compiled("evaluate");
  DatasetBatcher batches(dataset, o.steps, "steps", false);
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = batches.steps(), .verbose = o.verbose});
  return run_test_loop(batches, cbs);
}

std::vector<Tensor> Model::predict_outputs(const Arrays& x, PredictOptions o) {
  auto batches = array_source(x, {}, {}, o.batch_size, false);
  if (batches->samples() == 0)
    throw ValueError("predict() received no samples (x has " + std::to_string(batches->samples()) + " rows) for model '" +
                     name() + "'");
  return run_predict_loop(*batches, o);
}

std::vector<Tensor> Model::predict_outputs(const data::Dataset& dataset, PredictOptions o) {
  DatasetBatcher batches(dataset, o.steps, "steps", false);
  auto out = run_predict_loop(batches, o);
  if (out.empty()) throw ValueError("predict() received an empty Dataset for model '" + name() + "'");
  return out;
}

Tensor Model::predict(const Arrays& x, PredictOptions o) { return single_output(predict_outputs(x, o), "predict"); }

Tensor Model::predict(const data::Dataset& dataset, PredictOptions o) {
  return single_output(predict_outputs(dataset, o), "predict");
}

std::vector<Tensor> Model::run_predict_loop(BatchSource& data, const PredictOptions& o) {
  auto cbs = make_callbacks(o.callbacks, o.verbose, nullptr);
  cbs.set_model(this);
  cbs.set_params({.epochs = 1, .steps = data.steps(), .verbose = o.verbose});
  Logs logs;
  cbs.on_predict_begin(logs);
  data.start_epoch();
  std::vector<std::vector<Tensor>> batches;  // per batch, per output
  for (std::optional<Batch> b; (b = data.next());) {
    const auto step = static_cast<std::int64_t>(batches.size());
    Logs batch_logs;
    cbs.on_predict_batch_begin(step, batch_logs);
    batches.push_back(predict_on_batch_outputs(b->x));
    cbs.on_predict_batch_end(step, batch_logs);
  }
  cbs.on_predict_end(logs);
  std::vector<Tensor> out;
  if (batches.empty()) return out;
  for (std::size_t k = 0; k < batches[0].size(); ++k) {
    std::int64_t rows = 0;
    for (const auto& b : batches) rows += b.at(k).dim(0);
    Shape shape = batches[0][k].shape();
    shape[0] = rows;
    Tensor t = Tensor::empty(shape, batches[0][k].dtype());
    char* dst = static_cast<char*>(t.raw_data());
    for (const auto& b : batches) {
      if (b[k].shape().size() != shape.size() || !std::equal(shape.begin() + 1, shape.end(), b[k].shape().begin() + 1))
        throw ValueError("predict(): output " + std::to_string(k) + " of model '" + name() + "' changes shape between "
                         "batches (" + shape_str(batches[0][k].shape()) + " then " + shape_str(b[k].shape()) + ")");
      std::memcpy(dst, b[k].raw_data(), b[k].nbytes());
      dst += b[k].nbytes();
    }
    out.push_back(t);
  }
  return out;
}

}  // namespace keras
