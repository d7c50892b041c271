// Trainer::train_step as one replica of a distribution strategy: the same step on this replica's rows,
// except that the gradients applied are the average over all replicas (weighted by their rows), so every
// replica applies the same update and the weights stay identical.
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/model.hpp"
#include "keras/trainers/replica_sync.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {

Logs Trainer::replica_train_step(Model& model, const Batch& data, ReplicaSync& sync) {
  const std::int64_t local = data.x.empty() || !data.x[0].defined() ? 0 : data.x[0].dim(0);
  const std::int64_t global = sync.step_rows().first;
  // Outside fit's loop (train_on_batch), each replica's batch is its own share of the step.
  const double share = global > 0 ? double(local) / double(global) : 1.0 / sync.num_replicas();
  if (model.weights().empty() && local > 0) {  // a subclassed model builds on its first call
    autodiff::NoGradScope no_grad;
    model.call_all(data.x, {.training = false});
  }
  sync.sync_model(model, optimizer_.get());
  auto vars = model.trainable_weights();
  if (local == 0) {  // fewer rows than replicas: this one only takes part in the reduction
    GradientTape tape;
    optimizer_->apply_gradients(sync.gradients(tape, Tensor(), vars, 0.0), vars);
    return logs();
  }
  GradientTape tape;
  const std::vector<Tensor> y_pred = model.call_all(data.x, {.training = true});
  Tensor loss = model.compute_loss(data.x, data.y, y_pred, data.sample_weight);
  optimizer_->apply_gradients(sync.gradients(tape, loss, vars, share), vars);
  return model.compute_metrics(data.x, data.y, y_pred, data.sample_weight);
}

}  // namespace keras
