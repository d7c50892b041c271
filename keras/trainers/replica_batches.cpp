#include "keras/trainers/replica_batches.hpp"

#include <string>
#include <vector>

#include "keras/errors.hpp"

namespace keras {

std::int64_t batch_rows(const Batch& b) { return b.x.empty() || !b.x[0].defined() ? 0 : b.x[0].dim(0); }

ReplicaBatches::ReplicaBatches(DataAdapter& global, ReplicaSync& sync, data::AutoShardPolicy policy)
    : global_(global), sync_(sync), policy_(policy) {}

void ReplicaBatches::start_epoch() {
  parts_.clear();
  exhausted_ = false;
  if (policy_ == data::AutoShardPolicy::DATA) {
    global_.start_epoch();
    own_pipeline_ = false;
    return;
  }
  data::FileShardScope scope(sync_.num_replicas(), sync_.replica_id(), policy_);
  global_.start_epoch();
  // A pipeline that made no new iterator (steps_per_epoch carries one on) keeps the previous epoch's split.
  if (scope.seen() || policy_ == data::AutoShardPolicy::OFF)
    own_pipeline_ = policy_ == data::AutoShardPolicy::OFF || scope.applied();
  std::vector<double> own{own_pipeline_ ? 1.0 : 0.0};
  sync_.allreduce_sum(own);
  if (own[0] != 0 && own[0] != sync_.num_replicas())
    throw ValueError("rank " + std::to_string(sync_.replica_id()) + ": the replicas' Datasets differ: " +
                     std::to_string(static_cast<int>(own[0])) + " of " + std::to_string(sync_.num_replicas()) +
                     " read a file list they could shard by file (AutoShardPolicy " +
                     data::auto_shard_policy_name(policy_) + "); build the same pipeline on every rank");
}

std::optional<Batch> ReplicaBatches::next() {
  if (!own_pipeline_) {
    std::optional<Batch> global = global_.next();
    if (!global) return std::nullopt;
    Batch local = sync_.shard(*global);
    sync_.set_step_rows(batch_rows(*global), batch_rows(local));
    return local;
  }
  if (parts_.empty() && !exhausted_) {
    if (std::optional<Batch> b = global_.next()) {
      const std::int64_t rows = batch_rows(*b), n = sync_.num_replicas();
      for (std::int64_t i = 0; i < n; ++i)
        if (rows * (i + 1) / n > rows * i / n) parts_.push_back(b->rows(rows * i / n, rows * (i + 1) / n));
    } else {
      exhausted_ = true;
    }
  }
  Batch local;
  if (!parts_.empty()) {
    local = std::move(parts_.front());
    parts_.pop_front();
  }
  std::vector<double> rows{double(batch_rows(local))};
  sync_.allreduce_sum(rows);  // the step's global batch; none anywhere: the epoch is over
  if (rows[0] == 0) return std::nullopt;
  sync_.set_step_rows(static_cast<std::int64_t>(rows[0]), batch_rows(local));
  return local;
}

}  // namespace keras
