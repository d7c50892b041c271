// Trainer: compile() (the optimizer, a loss per output weighted and summed as tf.keras 2.x does, each
// output's metrics) and the default steps: what fit and evaluate do with one batch.
#include "keras/trainers/trainer.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/model.hpp"
#include "keras/ops/math.hpp"
#include "keras/trainers/replica_sync.hpp"

namespace keras {

Trainer::Trainer(const Model& model, CompileOptions options) : compiled_(true), options_(std::move(options)) {
  if (options_.loss.empty())
    throw ValueError("Model '" + model.name() + "': compile() needs a loss, e.g. "
                     "{.loss = \"sparse_categorical_crossentropy\"} or a losses:: object");
  if (!options_.optimizer) throw ValueError("Model '" + model.name() + "': compile() needs an optimizer");
  optimizer_ = options_.optimizer.ptr();
}

void Trainer::check_compiled(const Model& model, const char* what) const {
  if (!compiled_)
    throw ValueError(std::string("You must call compile() before using the model in ") + what + " (model '" +
                     model.name() + "')");
}

void Trainer::resolve_outputs(Model& model, std::size_t outputs) {
  check_compiled(model, "training");
  if (resolved_) return;
  if (!model.graph_ && outputs > 0) model.output_count_ = outputs;
  const auto names = model.output_names();
  const bool several = names.size() > 1;
  for (const auto& l : options_.loss.resolve(names, "loss", model.name(), true, false)) {
    if (l && !*l) throw ValueError("Model '" + model.name() + "': compile() received an empty loss");
    losses_.push_back(l ? l->ptr() : nullptr);
  }
  if (std::none_of(losses_.begin(), losses_.end(), [](const auto& l) { return l != nullptr; }))
    throw ValueError("Model '" + model.name() + "': the loss map names none of the outputs " +
                     structure_detail::join_names(names));
  for (const auto& w : options_.loss_weights.resolve(names, "loss_weights", model.name(), false, false))
    loss_weights_.push_back(w.value_or(1.0));
  const auto metric_lists = options_.metrics.resolve(names, model.name());
  const auto weighted_lists = options_.weighted_metrics.resolve(names, model.name());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (several && losses_[i])
      output_loss_trackers_.push_back(std::make_shared<metrics::Mean>(metrics::MeanOptions{.name = names[i] + "_loss"}));
    else
      output_loss_trackers_.push_back(nullptr);
    metrics_.emplace_back(metric_lists[i], several ? names[i] + "_" : "");
    weighted_metrics_.emplace_back(weighted_lists[i], several ? names[i] + "_" : "", true);
  }
  output_names_ = names;
  resolved_ = true;
}

optimizers::Optimizer& Trainer::optimizer(const Model& model) const {
  check_compiled(model, "optimizer()");
  return *optimizer_;
}

losses::Loss& Trainer::loss(const Model& model) const {
  check_compiled(model, "loss()");
  for (const auto& l : losses_)
    if (l) return *l;
  if (!resolved_) {  // a subclassed model before its first batch: the first loss given
    const auto& spec = options_.loss;
    if (spec.kind() == Structure<losses::LossRef>::Kind::one) return *spec.one().ptr();
    if (spec.kind() == Structure<losses::LossRef>::Kind::list && !spec.list().empty()) return *spec.list()[0].ptr();
    if (spec.kind() == Structure<losses::LossRef>::Kind::map && !spec.by_name().empty())
      return *spec.by_name().begin()->second.ptr();
  }
  throw ValueError("Model '" + model.name() + "' has no loss");
}

std::vector<std::string> Trainer::metrics_names() const {
  std::vector<std::string> names{"loss"};
  for (const auto& t : output_loss_trackers_)
    if (t) names.push_back(t->name());
  for (std::size_t i = 0; i < metrics_.size(); ++i) {
    const auto unweighted = metrics_[i].names();
    names.insert(names.end(), unweighted.begin(), unweighted.end());
    for (auto& n : weighted_metrics_[i].names(unweighted)) names.push_back(n);
  }
  return names;
}

LoggedMetrics Trainer::logged_metrics() {
  LoggedMetrics out{{"loss", &loss_tracker_}};
  for (const auto& t : output_loss_trackers_)
    if (t) out.emplace_back(t->name(), t.get());
  for (std::size_t i = 0; i < metrics_.size(); ++i) {
    metrics_[i].collect(out);
    weighted_metrics_[i].collect(out, metrics_[i].names());
  }
  return out;
}

Logs Trainer::logs() {
  Logs logs;
  for (const auto& [name, metric] : logged_metrics()) logs[name] = metric->result();
  return logs;
}

void Trainer::reset_metrics() {
  loss_tracker_.reset_state();
  for (const auto& t : output_loss_trackers_)
    if (t) t->reset_state();
  for (auto& m : metrics_) m.reset_state();
  for (auto& m : weighted_metrics_) m.reset_state();
}

namespace {
Tensor weight_of(const std::vector<Tensor>& sample_weight, std::size_t output) {
  return output < sample_weight.size() ? sample_weight[output] : Tensor();
}
}  // namespace

Tensor Trainer::compute_loss(Model& model, const Batch& data, const std::vector<Tensor>& y_pred) {
  resolve_outputs(model, y_pred.size());
  if (y_pred.size() != losses_.size())
    throw ValueError(fmt::format("Model '{}' was compiled for {} output(s) but produced {}", model.name(), losses_.size(),
                                 y_pred.size()));
  const double batch = y_pred[0].ndim() > 0 ? double(y_pred[0].dim(0)) : 1.0;
  Tensor total;
  // While the compiled train step traces, the trackers are left to it (it updates them at each replay).
  std::vector<Tensor>* const traced = std::exchange(traced_losses_, nullptr);
  if (traced) traced->assign(y_pred.size(), Tensor());
  for (std::size_t i = 0; i < y_pred.size(); ++i) {
    if (!losses_[i]) continue;
    if (i >= data.y.size() || !data.y[i].defined())
      throw ValueError(fmt::format("Model '{}': output '{}' has a loss but no target was given for it", model.name(),
                                   output_names_[i]));
    Tensor l = (*losses_[i])(data.y[i], y_pred[i], weight_of(data.sample_weight, i));
    if (traced) (*traced)[i] = l;
    else if (output_loss_trackers_[i]) output_loss_trackers_[i]->update(l, Tensor::full({1}, batch));
    if (loss_weights_[i] != 1.0)
      l = ops::multiply(l, jit::constant(Tensor::scalar(static_cast<float>(loss_weights_[i]))));
    total = total.defined() ? total + l : l;
  }
  // As Keras: the layers' losses (regularization penalties, add_loss) join the compiled loss.
  for (const Tensor& extra : model.losses()) total = total + extra;
  if (!traced) loss_tracker_.update(total, Tensor::full({1}, batch));  // weighted by batch size, as Keras
  return total;
}

Logs Trainer::compute_metrics(Model& model, const Batch& data, const std::vector<Tensor>& y_pred) {
  resolve_outputs(model, y_pred.size());
  autodiff::NoGradScope no_grad;
  for (std::size_t i = 0; i < y_pred.size() && i < metrics_.size(); ++i) {
    if (i >= data.y.size() || !data.y[i].defined()) continue;
    const std::string loss_class = losses_[i] ? losses_[i]->class_name() : "";
    metrics_[i].update_state(data.y[i], y_pred[i], Tensor(), loss_class);
    weighted_metrics_[i].update_state(data.y[i], y_pred[i], weight_of(data.sample_weight, i), loss_class);
  }
  return logs();
}

Logs Trainer::train_step(Model& model, const Batch& data) {
  if (ReplicaSync* sync = active_replica_sync()) return replica_train_step(model, data, *sync);
  // As Keras: run_eagerly runs op by op; otherwise the step is a compiled function (trainer_compiled_step.cpp).
  if (options_.run_eagerly || !options_.jit_compile) return eager_train_step(model, data);
  return compiled_train_step(model, data);
}

Logs Trainer::test_step(Model& model, const Batch& data) {
  autodiff::NoGradScope no_grad;
  const std::vector<Tensor> y_pred = model.call_all(data.x, {.training = false});
  model.compute_loss(data.x, data.y, y_pred, data.sample_weight);
  return model.compute_metrics(data.x, data.y, y_pred, data.sample_weight);
}

Logs Trainer::train_on_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  check_compiled(model, "train_on_batch");
  Logs logs = model.train_step(resolve_batch(model, x, y, sample_weight));
  if (reset) reset_metrics();
  return logs;
}

Logs Trainer::test_on_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  check_compiled(model, "test_on_batch");
  Logs logs = model.test_step(resolve_batch(model, x, y, sample_weight));
  if (reset) reset_metrics();
  return logs;
}

std::vector<Tensor> Trainer::predict_on_batch(Model& model, const Arrays& x) {
  autodiff::NoGradScope no_grad;
  return model.predict_step(resolve_batch(model, x, {}, {}).x);
}

}  // namespace keras
