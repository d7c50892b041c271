#pragma once
// Data-parallel training over MPI, as tf.distribute's MultiWorkerMirroredStrategy: one replica per MPI
// rank (launched by mpirun), each holding the whole model. Under the strategy's scope, fit, evaluate and
// predict work unchanged:
//
//     keras::distribute::MultiWorkerMirroredStrategy strategy;     // before building models and Datasets
//     auto scope = strategy.scope();
//     keras::Sequential model({...});
//     model.compile({...});
//     model.fit(x, y, {.batch_size = 256});     // 256 rows per step in all, 256 / N on each rank
//
// batch_size is the global batch, split evenly across replicas; weights start as the chief's (rank 0);
// gradients are averaged over replicas (bucketed, non-blocking allreduces that overlap the backward
// pass) before the optimizer step; the logged losses and metrics are aggregated over replicas. Arrays and
// Datasets are sharded by data: every replica reads the same global batches (same shuffle) and keeps its
// rows. predict runs each replica on its rows and gives every replica all the outputs, in order (as
// tf.keras does under a multi-worker strategy). Only the chief prints and writes ModelCheckpoint,
// CSVLogger and TensorBoard files.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "keras/trainers/replica_sync.hpp"

namespace keras::distribute {

class Timeline;
class GradientBuckets;

struct StrategyOptions {
  /// Gradients are reduced in buckets of about this many bytes (Horovod's fusion buffer, DDP's bucket_cap_mb).
  std::size_t bucket_bytes = 25u << 20;
  /// Reduce each bucket on a communication thread as soon as it is full, during the backward pass; false:
  /// all buckets after the backward pass, on the training thread. Unset: overlap when this host has a
  /// core to spare for the thread (cores > ranks on the host × threads per rank); where every core
  /// computes, the thread only takes time from the computation (measured on 2 cores, 2 ranks).
  std::optional<bool> overlap{};
  /// Where to write a Chrome trace of compute and communication (empty: none); ranks other than the
  /// chief add ".rank<R>" to the name.
  std::string timeline{};
  /// OpenMP threads per replica; 0: the cores of this host divided among its ranks, unless OMP_NUM_THREADS
  /// is set.
  int threads = 0;
};

class MultiWorkerMirroredStrategy : public ReplicaSync {
 public:
  /// Joins the MPI job (initializing MPI on first use) and gives every rank the chief's random generator,
  /// so the models and Datasets built next are the same on every rank.
  explicit MultiWorkerMirroredStrategy(StrategyOptions options = {});
  ~MultiWorkerMirroredStrategy() override;
  MultiWorkerMirroredStrategy(const MultiWorkerMirroredStrategy&) = delete;
  MultiWorkerMirroredStrategy& operator=(const MultiWorkerMirroredStrategy&) = delete;

  int num_replicas_in_sync() const { return size_; }
  /// This process's replica (its MPI rank).
  int replica_id() const override { return rank_; }
  int num_replicas() const override { return size_; }
  const StrategyOptions& options() const { return options_; }

  /// While the returned object lives, fit, evaluate and predict run as replicas of this strategy.
  class Scope {
   public:
    explicit Scope(MultiWorkerMirroredStrategy* strategy);
    ~Scope();
    Scope(Scope&& other) noexcept;
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;

   private:
    ReplicaSync* previous_;
    bool active_ = true;
  };
  [[nodiscard]] Scope scope() { return Scope(this); }

  /// Writes the timeline now (it is also written when the strategy is destroyed).
  void write_timeline() const;

  // ReplicaSync, used by the trainer.
  void sync_model(Model& model, const std::shared_ptr<const optimizers::Optimizer>& optimizer) override;
  std::vector<Tensor> gradients(GradientTape& tape, const Tensor& loss, const std::vector<std::shared_ptr<Variable>>& vars,
                                double share) override;
  std::vector<Tensor> reduce_gradients(const std::vector<Tensor>& grads, const std::vector<std::shared_ptr<Variable>>& vars,
                                       double share) override;
  void allreduce_sum(std::vector<double>& values) override;
  std::vector<std::string> allgather(const std::string& bytes) override;
  void agree_random_state() override;
  void diverge_random_state() override;
  void on_step_begin() override;
  void on_step_end() override;

 private:
  StrategyOptions options_;
  int rank_ = 0, size_ = 1;
  int uncaught_at_start_ = 0;
  std::unique_ptr<Timeline> timeline_;
  std::unique_ptr<GradientBuckets> buckets_;
  // What the last sync_model gave the chief's weights to, held weakly: a new model or optimizer made where a
  // destroyed one was (the same address on one rank, not on another) is synced, not taken for the old one.
  std::vector<std::weak_ptr<Variable>> synced_weights_;
  std::weak_ptr<const optimizers::Optimizer> synced_optimizer_;
  bool synced_without_optimizer_ = false;
  std::vector<bool> has_gradient_;  // which variables had a gradient at the last step with rows
  double step_began_ = 0, gradients_done_ = 0;
};

/// The single-host spelling of the same strategy (tf.distribute.MirroredStrategy): every rank of the job
/// must run on this machine.
class MirroredStrategy : public MultiWorkerMirroredStrategy {
 public:
  explicit MirroredStrategy(StrategyOptions options = {});
};

}  // namespace keras::distribute
