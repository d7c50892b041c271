// Trainer::train_step as a compiled function (keras::function): the forward pass and the loss are traced
// once per batch signature and replayed afterwards; the gradient runs the trace's recorded backward
// closures; the loss trackers, the optimizer step and the metrics run as in the eager step, on the
// replayed values. Bit-identical to the eager step (same kernels, same closures, same order).
#include "keras/autodiff/gradient_ready.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/function.hpp"
#include "keras/model.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {
namespace {
// The trainer and model of the compiled step running on this thread (the traced body reads them).
struct Stepping {
  Trainer* trainer = nullptr;
  Model* model = nullptr;
  std::size_t x = 0, y = 0;  // how the flat inputs split into x, y and sample_weight
};
thread_local Stepping stepping;

std::vector<Tensor> part(const std::vector<Tensor>& all, std::size_t begin, std::size_t end) {
  return {all.begin() + static_cast<std::ptrdiff_t>(begin), all.begin() + static_cast<std::ptrdiff_t>(end)};
}
}  // namespace

Logs Trainer::eager_train_step(Model& model, const Batch& data) {
  GradientTape tape;
  const std::vector<Tensor> y_pred = model.call_all(data.x, {.training = true});
  Tensor loss = model.compute_loss(data.x, data.y, y_pred, data.sample_weight);
  auto vars = model.trainable_weights();
  optimizer_->apply_gradients(tape.gradient(loss, vars), vars);
  return model.compute_metrics(data.x, data.y, y_pred, data.sample_weight);
}

Logs Trainer::compiled_train_step(Model& model, const Batch& data) {
  // A step inside another trace, under a caller's tape or with a gradient hook stays eager (what those
  // expect is the op-by-op tape).
  if (jit::tracing() || autodiff::recording() || autodiff::gradient_ready_hook()) return eager_train_step(model, data);
  if (!compiled_step_ || compiled_model_ != &model) {
    compiled_model_ = &model;
    compiled_step_ = std::make_shared<Function>(
        [](const std::vector<Tensor>& in) {
          Trainer& self = *stepping.trainer;
          Model& m = *stepping.model;
          const auto x = part(in, 0, stepping.x), y = part(in, stepping.x, stepping.x + stepping.y),
                     sw = part(in, stepping.x + stepping.y, in.size());
          std::vector<Tensor> outputs = m.call_all(x, {.training = true});
          std::vector<Tensor> losses;
          self.traced_losses_ = &losses;
          Tensor total;
          try {
            total = m.compute_loss(x, y, outputs, sw);
          } catch (...) {
            self.traced_losses_ = nullptr;
            throw;
          }
          self.traced_losses_ = nullptr;
          if (losses.size() != self.losses_.size())  // compute_loss overridden: its side effects are unknown
            jit::not_replayable("the model overrides compute_loss");
          losses.resize(self.losses_.size());
          outputs.push_back(total);
          outputs.insert(outputs.end(), losses.begin(), losses.end());
          return outputs;
        },
        FunctionOptions{.name = "train_step of model '" + model.name() + "'", .watch_inputs = false});
  }
  std::vector<Tensor> inputs = data.x;
  inputs.insert(inputs.end(), data.y.begin(), data.y.end());
  inputs.insert(inputs.end(), data.sample_weight.begin(), data.sample_weight.end());
  if (compiled_step_->runs_eagerly(inputs)) return eager_train_step(model, data);

  struct Enter {
    Stepping previous = stepping;
    Enter(Trainer* t, Model* m, std::size_t x, std::size_t y) { stepping = {t, m, x, y}; }
    ~Enter() { stepping = previous; }
  } enter(this, &model, data.x.size(), data.y.size());
  const Function::Call call = compiled_step_->call(inputs);
  const std::size_t outputs = call.outputs.size() - 1 - losses_.size();
  const std::vector<Tensor> y_pred = part(call.outputs, 0, outputs);
  const Tensor& total = call.outputs[outputs];
  // What compute_loss does besides computing: the loss trackers, weighted by the batch size.
  const double batch = y_pred[0].ndim() > 0 ? double(y_pred[0].dim(0)) : 1.0;
  for (std::size_t i = 0; i < output_loss_trackers_.size(); ++i)
    if (output_loss_trackers_[i]) output_loss_trackers_[i]->update(call.outputs[outputs + 1 + i], Tensor::full({1}, batch));
  loss_tracker_.update(total, Tensor::full({1}, batch));
  auto vars = model.trainable_weights();
  std::vector<Tensor> values;
  values.reserve(vars.size());
  for (const auto& v : vars) values.push_back(v->value());
  optimizer_->apply_gradients(call.trace->gradient(total, values), vars);
  return model.compute_metrics(data.x, data.y, y_pred, data.sample_weight);
}

}  // namespace keras
