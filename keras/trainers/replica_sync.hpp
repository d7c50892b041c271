#pragma once
// What the trainer asks of a data-parallel strategy (keras::distribute::MultiWorkerMirroredStrategy).
// While a strategy's scope is alive it is the active ReplicaSync, and fit/evaluate run as one replica of
// many: each takes its rows of every global batch, starts from the chief's weights, applies gradients
// averaged over all replicas and logs metrics aggregated over all of them. With none active (the
// default) the loops do exactly what they do in a single process.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "keras/tensor.hpp"
#include "keras/trainers/batch.hpp"
#include "keras/utils/logs.hpp"

namespace keras {

class GradientTape;
class Model;
class Variable;
namespace optimizers {
class Optimizer;
}
namespace metrics {
class Metric;
}

/// The metrics behind a step's logs: log name → the metric object (the trainer's loss trackers and compiled
/// metrics).
using LoggedMetrics = std::vector<std::pair<std::string, metrics::Metric*>>;

class ReplicaSync {
 public:
  virtual ~ReplicaSync() = default;
  virtual int num_replicas() const = 0;
  /// 0 for the chief.
  virtual int replica_id() const = 0;
  bool is_chief() const { return replica_id() == 0; }

  /// Before a model's first step (again when its weights or optimizer change): refuses a model or optimizer
  /// that differs from the chief's, then gives every replica the chief's weights. `optimizer` is null for a
  /// model that is not compiled (predict).
  virtual void sync_model(Model& model, const std::shared_ptr<const optimizers::Optimizer>& optimizer) = 0;
  /// d loss / d vars averaged over the replicas, each weighted by `share` (its rows over the global
  /// batch's), identical on every replica. `loss` is undefined when this replica has no rows this step.
  virtual std::vector<Tensor> gradients(GradientTape& tape, const Tensor& loss,
                                        const std::vector<std::shared_ptr<Variable>>& vars, double share) = 0;
  /// `grads` (this replica's, of vars) averaged over the replicas, each weighted by `share`; undefined
  /// gradients stay undefined.
  virtual std::vector<Tensor> reduce_gradients(const std::vector<Tensor>& grads,
                                               const std::vector<std::shared_ptr<Variable>>& vars, double share) = 0;
  /// True once after gradients(): the trainer's own step hands apply_gradients reduced gradients.
  bool take_reduced() { return std::exchange(reduced_, false); }
  /// Sums `values` element-wise over the replicas, in place.
  virtual void allreduce_sum(std::vector<double>& values) = 0;
  /// Every replica's `bytes`, in replica order, on every replica.
  virtual std::vector<std::string> allgather(const std::string& bytes) = 0;
  /// Gives every replica the chief's random generator (before drawing what must agree: a shuffle order),
  /// then makes them differ again (dropout masks stay independent).
  virtual void agree_random_state() = 0;
  virtual void diverge_random_state() = 0;
  /// Marks a training step's start and end (for the timeline).
  virtual void on_step_begin() {}
  virtual void on_step_end() {}

  /// This replica's rows of a global batch of `rows`: contiguous and as even as possible.
  std::pair<std::int64_t, std::int64_t> shard(std::int64_t rows) const;
  /// This replica's rows of a global batch.
  Batch shard(const Batch& global) const;
  /// Logs aggregated over replicas, as tf.distribute aggregates Keras's metric variables: a log of one of
  /// `metrics` whose state() adds up is that metric's result() on the sum of every replica's state (exact
  /// for precision, AUC, IoU...); any other value is averaged, each replica weighted by the rows it has seen
  /// (`rows`). Also agrees on `stop` (true on every replica when true on one).
  Logs aggregate(const Logs& local, double rows, bool& stop, const LoggedMetrics& metrics = {});
  /// Every replica's `local` tensors (predict's outputs for its rows of a global batch), in replica
  /// order, i.e. the global batch's row order; replicas that had no rows (`local` empty) are left out.
  std::vector<std::vector<Tensor>> gather(const std::vector<Tensor>& local);

  /// The rows of this step's global batch and this replica's (set by the loop for train_step).
  void set_step_rows(std::int64_t global, std::int64_t local) { step_rows_ = {global, local}; }
  std::pair<std::int64_t, std::int64_t> step_rows() const { return step_rows_; }

 protected:
  bool reduced_ = false;

 private:
  std::pair<std::int64_t, std::int64_t> step_rows_{0, 0};
};

/// The strategy whose scope is alive, or null (single process).
ReplicaSync* active_replica_sync();
/// Used by strategies' scopes; returns the previous one.
ReplicaSync* set_active_replica_sync(ReplicaSync* sync);

/// What Optimizer::apply_gradients applies: under a strategy, as tf.keras's apply_gradients does, the
/// gradients averaged over the replicas (weighted by their rows of the step; equally outside fit), unless
/// the trainer's step already averaged them; without a strategy, `grads` unchanged. So a custom
/// train_step or training loop under a strategy's scope keeps the replicas identical.
std::vector<Tensor> cross_replica_gradients(const std::vector<Tensor>& grads,
                                            const std::vector<std::shared_ptr<Variable>>& vars);

}  // namespace keras
