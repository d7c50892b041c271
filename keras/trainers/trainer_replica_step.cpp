// Trainer::train_step as one replica of a distribution strategy: the same step on this replica's rows,
// except that the gradients applied are the average over all replicas (weighted by their rows), so every
// replica applies the same update and the weights stay identical.
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/model.hpp"
#include "keras/trainers/replica_batches.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {

void Trainer::sync_replica_model(Model& model, const Batch& data, ReplicaSync& sync) {
  if (model.weights().empty() && batch_rows(data) > 0) {  // a subclassed model builds on its first call
    autodiff::NoGradScope no_grad;
    model.call_all(data.x, {.training = false});
  }
  sync.sync_model(model, optimizer_);
}

Logs Trainer::replica_train_step(Model& model, const Batch& data, ReplicaSync& sync) {
  const std::int64_t local = batch_rows(data);
  const std::int64_t global = sync.step_rows().first;
  // Outside fit's loop (train_on_batch), each replica's batch is its own share of the step.
  const double share = global > 0 ? double(local) / double(global) : 1.0 / sync.num_replicas();
  sync_replica_model(model, data, sync);
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
