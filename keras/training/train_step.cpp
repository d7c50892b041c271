// Model::compile and what fit/evaluate do with one batch: the forward pass, a loss per output (weighted and
// summed as tf.keras 2.x does), the metrics of each output, the gradient step; and train_on_batch & co.
#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/functional_graph.hpp"
#include "keras/model.hpp"
#include "keras/ops/math.hpp"
#include "keras/training/array_batcher.hpp"
#include "keras/training/compiled_metrics.hpp"

namespace keras {

void Model::compile(CompileOptions options) {
  if (options.loss.empty())
    throw ValueError("Model '" + name() + "': compile() needs a loss, e.g. "
                     "{.loss = \"sparse_categorical_crossentropy\"} or a losses:: object");
  if (!options.optimizer) throw ValueError("Model '" + name() + "': compile() needs an optimizer");
  auto st = std::make_shared<TrainingState>();
  st->optimizer = options.optimizer.ptr();
  st->options = std::move(options);
  // A graph model knows its outputs: check the per-output arguments now. A subclassed model's outputs are
  // known after its first call: its arguments are resolved then (resolved_state), as Keras does.
  if (graph_ || output_count_) st->resolve(output_names(), name());
  state_ = std::move(st);
  compiled_ = true;
}

void Model::TrainingState::resolve(const std::vector<std::string>& names, const std::string& model) {
  const bool several = names.size() > 1;
  losses.clear();
  loss_weights.clear();
  output_loss_trackers.clear();
  metrics.clear();
  for (const auto& l : options.loss.resolve(names, "loss", model, true, false)) {
    if (l && !*l) throw ValueError("Model '" + model + "': compile() received an empty loss");
    losses.push_back(l ? l->ptr() : nullptr);
  }
  if (std::none_of(losses.begin(), losses.end(), [](const auto& l) { return l != nullptr; }))
    throw ValueError("Model '" + model + "': the loss map names none of the outputs " + structure_detail::join_names(names));
  for (const auto& w : options.loss_weights.resolve(names, "loss_weights", model, false, false))
    loss_weights.push_back(w.value_or(1.0));
  const auto metric_lists = options.metrics.resolve(names, model);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (several && losses[i])
      output_loss_trackers.push_back(std::make_shared<metrics::Mean>(metrics::MeanOptions{.name = names[i] + "_loss"}));
    else
      output_loss_trackers.push_back(nullptr);
    metrics.emplace_back(metric_lists[i], several ? names[i] + "_" : "");
  }
  output_names = names;
  resolved = true;
}

Model::TrainingState& Model::resolved_state(std::size_t outputs) {
  check_compiled("training");
  if (!state_->resolved) {
    if (!graph_ && outputs > 0) output_count_ = outputs;
    state_->resolve(output_names(), name());
  }
  return *state_;
}

void Model::check_compiled(const char* what) const {
  if (!compiled_)
    throw ValueError(std::string("You must call compile() before using the model in ") + what + " (model '" +
                     name() + "')");
}

optimizers::Optimizer& Model::optimizer() const {
  check_compiled("optimizer()");
  return *state_->optimizer;
}

losses::Loss& Model::loss() const {
  check_compiled("loss()");
  for (const auto& l : state_->losses)
    if (l) return *l;
  if (!state_->resolved) {  // a subclassed model before its first batch: the first loss given
    const auto& spec = state_->options.loss;
    if (spec.kind() == Structure<losses::LossRef>::Kind::one) return *spec.one().ptr();
    if (spec.kind() == Structure<losses::LossRef>::Kind::list && !spec.list().empty()) return *spec.list()[0].ptr();
    if (spec.kind() == Structure<losses::LossRef>::Kind::map && !spec.by_name().empty()) return *spec.by_name().begin()->second.ptr();
  }
  throw ValueError("Model '" + name() + "' has no loss");
}

std::vector<std::string> Model::metrics_names() const {
  std::vector<std::string> names{"loss"};
  if (!state_) return names;
  for (const auto& t : state_->output_loss_trackers)
    if (t) names.push_back(t->name());
  for (const auto& m : state_->metrics)
    for (auto& n : m.names()) names.push_back(n);
  return names;
}

Logs Model::current_logs() const {
  Logs logs;
  logs["loss"] = state_->loss_tracker.result();
  for (const auto& t : state_->output_loss_trackers)
    if (t) logs[t->name()] = t->result();
  for (const auto& m : state_->metrics) m.write(logs);
  return logs;
}

void Model::reset_metrics() {
  if (!state_) return;
  state_->loss_tracker.reset_state();
  for (const auto& t : state_->output_loss_trackers)
    if (t) t->reset_state();
  for (auto& m : state_->metrics) m.reset_state();
}

namespace {
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


// Keras broadcasts one sample_weight array to every output.
Tensor weight_of(const std::vector<Tensor>& sample_weight, std::size_t output) {
  if (sample_weight.empty()) return Tensor();
  return sample_weight.size() == 1 ? sample_weight[0] : sample_weight.at(output);
}
}  // namespace

Tensor Model::compute_loss(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                           const std::vector<Tensor>& sample_weight) {
  auto& st = resolved_state(y_pred.size());
  if (y_pred.size() != st.losses.size())
    throw ValueError(fmt::format("Model '{}' was compiled for {} output(s) but produced {}", name(), st.losses.size(),
                                 y_pred.size()));
  const double batch = y_pred[0].ndim() > 0 ? double(y_pred[0].dim(0)) : 1.0;
  Tensor total;
  for (std::size_t i = 0; i < y_pred.size(); ++i) {
    if (!st.losses[i]) continue;
    if (i >= y.size() || !y[i].defined())
      throw ValueError(fmt::format("Model '{}': output '{}' has a loss but no target was given for it", name(),
                                   st.output_names[i]));
    Tensor l = (*st.losses[i])(y[i], y_pred[i], weight_of(sample_weight, i));
    if (st.output_loss_trackers[i]) st.output_loss_trackers[i]->update(l, Tensor::full({1}, batch));
    if (st.loss_weights[i] != 1.0) l = ops::multiply(l, Tensor::scalar(static_cast<float>(st.loss_weights[i])));
    total = total.defined() ? total + l : l;
  }
  // As Keras: the layers' losses (regularization penalties, add_loss) join the compiled loss.
  for (const Tensor& extra : losses()) total = total + extra;
  st.loss_tracker.update(total, Tensor::full({1}, batch));  // weighted by batch size, as Keras
  return total;
}

Logs Model::compute_metrics(const std::vector<Tensor>&, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                            const std::vector<Tensor>& sample_weight) {
  auto& st = resolved_state(y_pred.size());
  autodiff::NoGradScope no_grad;
  for (std::size_t i = 0; i < y_pred.size() && i < st.metrics.size(); ++i) {
    if (i >= y.size() || !y[i].defined()) continue;
    st.metrics[i].update_state(y[i], y_pred[i], weight_of(sample_weight, i), st.losses[i] ? st.losses[i]->class_name() : "");
  }
  return current_logs();
}

Tensor Model::compute_loss(const Tensor& x, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight) {
  return compute_loss(std::vector<Tensor>{x}, {y}, {y_pred}, {sample_weight});
}

Logs Model::compute_metrics(const Tensor& x, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight) {
  return compute_metrics(std::vector<Tensor>{x}, {y}, {y_pred}, {sample_weight});
}

Logs Model::train_step(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight) {
  GradientTape tape;
  const std::vector<Tensor> y_pred = call_all(x, true);
  Tensor loss = compute_loss(x, y, y_pred, sample_weight);
  auto vars = trainable_weights();
  state_->optimizer->apply_gradients(tape.gradient(loss, vars), vars);
  return compute_metrics(x, y, y_pred, sample_weight);
}

Logs Model::test_step(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& sample_weight) {
  autodiff::NoGradScope no_grad;
  const std::vector<Tensor> y_pred = call_all(x, false);
  compute_loss(x, y, y_pred, sample_weight);
  return compute_metrics(x, y, y_pred, sample_weight);
}

Logs Model::train_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  GradientTape tape;
  Tensor y_pred = (*this)(x, true);
  Tensor loss = compute_loss(x, y, y_pred, sample_weight);
  auto vars = trainable_weights();
  state_->optimizer->apply_gradients(tape.gradient(loss, vars), vars);
  return compute_metrics(x, y, y_pred, sample_weight);
}

Logs Model::test_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  Tensor y_pred = (*this)(x, false);
  compute_loss(x, y, y_pred, sample_weight);
  return compute_metrics(x, y, y_pred, sample_weight);
}

// ---- x, y and sample_weight as one tensor per model input / output ----

std::vector<Tensor> Model::resolve_inputs(const Arrays& x) const {
  std::vector<Tensor> out;
  const auto names = input_names();
  // A subclassed model takes whatever it is given (its call decides); a graph needs one array per input.
  if (!graph_ && x.kind() == Arrays::Kind::list) return x.list();

  for (auto& t : x.resolve(names, "x", name(), false, true)) out.push_back(*t);
  return out;
}

std::vector<Tensor> Model::resolve_targets(const Arrays& y) const {
  // A subclassed model before its first call: a list is taken as one target per output, in order.
  if (!graph_ && !output_count_ && class_name() != "Sequential" && y.kind() == Arrays::Kind::list) return y.list();
  const auto names = output_names();
  std::vector<Tensor> out;
  for (auto& t : y.resolve(names, "y", name(), false, false)) out.push_back(t.value_or(Tensor()));
  return out;
}

std::vector<Tensor> Model::resolve_sample_weights(const Arrays& sample_weight) const {
  if (sample_weight.empty()) return {};
  if (sample_weight.kind() == Arrays::Kind::one) return {sample_weight.one()};
  if (!graph_ && !output_count_ && class_name() != "Sequential" && sample_weight.kind() == Arrays::Kind::list)
    return sample_weight.list();
  std::vector<Tensor> out;
  for (auto& t : sample_weight.resolve(output_names(), "sample_weight", name(), true, false))
    out.push_back(t.value_or(Tensor()));
  return out;
}

void Model::build_from_data(const std::vector<Tensor>& x) {
  if (built()) return;
  std::vector<Shape> shapes;
  for (const auto& t : x) shapes.push_back(t.shape());
  ensure_built(shapes);
}

Logs Model::run_train_step(const Arrays& x, const Arrays& y, const Arrays& sample_weight,
                           const std::map<std::int64_t, double>& class_weight) {
  auto xs = resolve_inputs(x);
  build_from_data(xs);  // first, so that a subclassed model's outputs are known to name y
  auto ys = resolve_targets(y), ws = resolve_sample_weights(sample_weight);
  check_same_samples(xs, ys, ws, name());
  if (xs.size() == 1 && ys.size() == 1) {
    Tensor w = ws.empty() ? Tensor() : ws[0];
    return train_step(xs[0], ys[0], with_class_weight(ys[0], w, class_weight));
  }
  if (!class_weight.empty())
    throw ValueError("Model '" + name() + "': class_weight is only supported for models with a single output; give "
                     "sample_weight per output instead");
  return train_step(xs, ys, ws);
}

Logs Model::run_test_step(const Arrays& x, const Arrays& y, const Arrays& sample_weight) {
  auto xs = resolve_inputs(x);
  build_from_data(xs);
  auto ys = resolve_targets(y), ws = resolve_sample_weights(sample_weight);
  check_same_samples(xs, ys, ws, name());
  if (xs.size() == 1 && ys.size() == 1) return test_step(xs[0], ys[0], ws.empty() ? Tensor() : ws[0]);
  return test_step(xs, ys, ws);
}

Logs Model::train_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  check_compiled("train_on_batch");
  Logs logs = run_train_step(x, y, sample_weight, {});
  if (reset) reset_metrics();
  return logs;
}

Logs Model::test_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  check_compiled("test_on_batch");
  Logs logs = run_test_step(x, y, sample_weight);
  if (reset) reset_metrics();
  return logs;
}

std::vector<Tensor> Model::predict_on_batch_outputs(const Arrays& x) {
  autodiff::NoGradScope no_grad;
  auto xs = resolve_inputs(x);
  check_same_samples(xs, {}, {}, name());
  build_from_data(xs);
  // One input, one output: the single-tensor path that subclassed models override.
  if (xs.size() == 1 && output_names().size() == 1) return {(*this)(xs[0], false)};
  return call_all(xs, false);
}

Tensor Model::single_output(std::vector<Tensor> outputs, const char* what) const {
  if (outputs.size() != 1)
    throw ValueError(fmt::format("Model '{}' has {} outputs {}; {}() returns one tensor: call {}_outputs() to get all of "
                                 "them (a std::vector<Tensor> in this order)",
                                 name(), outputs.size(), structure_detail::join_names(output_names()), what, what));
  return outputs[0];
}

Tensor Model::predict_on_batch(const Arrays& x) {
  return single_output(predict_on_batch_outputs(x), "predict_on_batch");
}

}  // namespace keras
