#pragma once
// The batches of fit/evaluate/predict as one replica of a distribution strategy sees them
// (keras/trainers/replica_sync.hpp). Each next() is this replica's part of one global step, and sets the
// step's global and local row counts on the ReplicaSync. How the data is split follows the source's
// AutoShardPolicy (data/auto_shard.hpp), as tf.distribute does:
//  - by data (DATA; arrays; AUTO without enough files; always for predict): every replica reads the
//    same global batches (one shuffle order) and keeps its contiguous rows of each;
//  - by file (FILE, or AUTO with a file list of at least N files) or not at all (OFF): each replica reads
//    its own pipeline, and each of its batches of B rows becomes N steps of B/N rows (tf.data's
//    rebatch). A step ends the epoch when no replica has rows left; until then a replica that ran out
//    takes part with none.
#include <cstdint>
#include <deque>
#include <optional>

#include "data/auto_shard.hpp"
#include "keras/trainers/data_adapter.hpp"
#include "keras/trainers/replica_sync.hpp"

namespace keras {

class ReplicaBatches : public DataAdapter {
 public:
  ReplicaBatches(DataAdapter& global, ReplicaSync& sync, data::AutoShardPolicy policy);
  std::int64_t steps() const override { return global_.steps(); }
  std::int64_t samples() const override { return global_.samples(); }
  void start_epoch() override;
  std::optional<Batch> next() override;
  bool ran_out() const override { return global_.ran_out(); }
  /// True when this replica reads its own pipeline (by file, or OFF) this epoch.
  bool own_pipeline() const { return own_pipeline_; }

 private:
  DataAdapter& global_;
  ReplicaSync& sync_;
  data::AutoShardPolicy policy_;
  bool own_pipeline_ = false, exhausted_ = false;
  std::deque<Batch> parts_;  // this replica's steps of its current batch
};

/// Rows of a batch (0 when it has no inputs).
std::int64_t batch_rows(const Batch& b);

}  // namespace keras
