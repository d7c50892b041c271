// Model's training methods: each hands the call to the model's Trainer (the model owns the graph and
// the layers; the trainer owns what compile() set up and runs the loops).
#include <fmt/format.h>

#include "keras/model.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {
namespace {
Tensor single_output(const Model& model, std::vector<Tensor> outputs, const char* what) {
  if (outputs.size() != 1)
    throw ValueError(fmt::format("Model '{}' has {} outputs {}; {}() returns one tensor: call {}_outputs() to get all of "
                                 "them (a std::vector<Tensor> in this order)",
                                 model.name(), outputs.size(), structure_detail::join_names(model.output_names()), what,
                                 what));
  return outputs[0];
}
}  // namespace

Trainer& Model::trainer() {
  if (!trainer_) trainer_ = std::make_shared<Trainer>();
  return *trainer_;
}

void Model::compile(const CompileOptions& options) {
  auto trainer = std::make_shared<Trainer>(*this, options);
  // A graph model knows its outputs: check the per-output arguments now. A subclassed model's outputs are
  // known after its first call: its arguments are resolved then, as Keras does.
  if (output_count()) trainer->resolve_outputs(*this, 0);
  trainer_ = std::move(trainer);
  compile_config_.reset();
}

bool Model::compiled() const { return trainer_ && trainer_->compiled(); }

namespace {
const Trainer& trainer_or_uncompiled(const std::shared_ptr<Trainer>& trainer) {
  static const Trainer uncompiled;
  return trainer ? *trainer : uncompiled;
}
}  // namespace

optimizers::Optimizer& Model::optimizer() const { return trainer_or_uncompiled(trainer_).optimizer(*this); }

losses::Loss& Model::loss() const { return trainer_or_uncompiled(trainer_).loss(*this); }

std::vector<std::string> Model::metrics_names() const {
  return trainer_ ? trainer_->metrics_names() : std::vector<std::string>{"loss"};
}

void Model::reset_metrics() {
  if (trainer_) trainer_->reset_metrics();
}

callbacks::History Model::fit(const Arrays& x, const Arrays& y) { return fit(x, y, FitOptions{}); }
callbacks::History Model::fit(const Arrays& x, const Arrays& y, const FitOptions& o) { return trainer().fit(*this, x, y, o); }
callbacks::History Model::fit(const data::Dataset& dataset) { return fit(dataset, FitOptions{}); }
callbacks::History Model::fit(const data::Dataset& dataset, const FitOptions& o) { return trainer().fit(*this, dataset, o); }

Logs Model::evaluate(const Arrays& x, const Arrays& y) { return evaluate(x, y, EvaluateOptions{}); }
Logs Model::evaluate(const Arrays& x, const Arrays& y, const EvaluateOptions& o) { return trainer().evaluate(*this, x, y, o); }
Logs Model::evaluate(const data::Dataset& dataset) { return evaluate(dataset, EvaluateOptions{}); }
Logs Model::evaluate(const data::Dataset& dataset, const EvaluateOptions& o) {
  return trainer().evaluate(*this, dataset, o);
}

Tensor Model::predict(const Arrays& x) { return predict(x, PredictOptions{}); }
Tensor Model::predict(const Arrays& x, const PredictOptions& o) {
  return single_output(*this, predict_outputs(x, o), "predict");
}
Tensor Model::predict(const data::Dataset& dataset) { return predict(dataset, PredictOptions{}); }
Tensor Model::predict(const data::Dataset& dataset, const PredictOptions& o) {
  return single_output(*this, predict_outputs(dataset, o), "predict");
}
std::vector<Tensor> Model::predict_outputs(const Arrays& x) { return predict_outputs(x, PredictOptions{}); }
std::vector<Tensor> Model::predict_outputs(const Arrays& x, const PredictOptions& o) {
  return trainer().predict(*this, x, o);
}
std::vector<Tensor> Model::predict_outputs(const data::Dataset& dataset) {
  return predict_outputs(dataset, PredictOptions{});
}
std::vector<Tensor> Model::predict_outputs(const data::Dataset& dataset, const PredictOptions& o) {
  return trainer().predict(*this, dataset, o);
}

Logs Model::train_on_batch(const Arrays& x, const Arrays& y) { return train_on_batch(x, y, Arrays(), true); }
Logs Model::train_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  return trainer().train_on_batch(*this, x, y, sample_weight, reset);
}
Logs Model::test_on_batch(const Arrays& x, const Arrays& y) { return test_on_batch(x, y, Arrays(), true); }
Logs Model::test_on_batch(const Arrays& x, const Arrays& y, const Arrays& sample_weight, bool reset) {
  return trainer().test_on_batch(*this, x, y, sample_weight, reset);
}
Tensor Model::predict_on_batch(const Arrays& x) {
  return single_output(*this, predict_on_batch_outputs(x), "predict_on_batch");
}
std::vector<Tensor> Model::predict_on_batch_outputs(const Arrays& x) { return trainer().predict_on_batch(*this, x); }

Logs Model::train_step(const Batch& data) { return trainer().train_step(*this, data); }
Logs Model::test_step(const Batch& data) { return trainer().test_step(*this, data); }
std::vector<Tensor> Model::predict_step(const std::vector<Tensor>& x) { return call_all(x); }
Tensor Model::compute_loss(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                           const std::vector<Tensor>& sample_weight) {
  return trainer().compute_loss(*this, Batch{x, y, sample_weight}, y_pred);
}
Logs Model::compute_metrics(const std::vector<Tensor>& x, const std::vector<Tensor>& y, const std::vector<Tensor>& y_pred,
                            const std::vector<Tensor>& sample_weight) {
  return trainer().compute_metrics(*this, Batch{x, y, sample_weight}, y_pred);
}

}  // namespace keras
