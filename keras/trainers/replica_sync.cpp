#include "keras/trainers/replica_sync.hpp"

namespace keras {
namespace {
ReplicaSync* active = nullptr;
}  // namespace

ReplicaSync* active_replica_sync() { return active; }

ReplicaSync* set_active_replica_sync(ReplicaSync* sync) { return std::exchange(active, sync); }

std::pair<std::int64_t, std::int64_t> ReplicaSync::shard(std::int64_t rows) const {
  const std::int64_t n = num_replicas(), r = replica_id();
  return {rows * r / n, rows * (r + 1) / n};
}

Batch ReplicaSync::shard(const Batch& global) const {
  const auto range = shard(global.x.empty() || !global.x[0].defined() ? 0 : global.x[0].dim(0));
  const std::int64_t begin = range.first, end = range.second;  // named: clang 14 lambdas cannot capture bindings
  auto rows = [&](const std::vector<Tensor>& ts) {
    std::vector<Tensor> out;
    for (const auto& t : ts) out.push_back(t.defined() ? t.slice(begin, end) : Tensor());
    return out;
  };
  return {rows(global.x), rows(global.y), rows(global.sample_weight)};
}

Logs ReplicaSync::aggregate(const Logs& local, double rows, bool& stop) {
  std::vector<double> values{rows, stop ? 1.0 : 0.0};
  for (const auto& [key, value] : local) values.push_back(value * rows);
  allreduce_sum(values);
  stop = values[1] > 0;
  Logs global;
  std::size_t i = 2;
  for (const auto& [key, value] : local) global[key] = values[0] > 0 ? values[i++] / values[0] : value;
  return global;
}

}  // namespace keras
