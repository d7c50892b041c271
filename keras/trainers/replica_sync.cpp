#include "keras/trainers/replica_sync.hpp"

#include <cstring>

#include "keras/errors.hpp"
#include "metrics/metric.hpp"

namespace keras {
namespace {
ReplicaSync* active = nullptr;

// Tensors as bytes for allgather: per tensor its dtype, rank, dims and elements (strings length-prefixed).
template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T>
T take(const std::string& in, std::size_t& at) {
  if (at + sizeof(T) > in.size()) throw ValueError("a replica sent truncated predict outputs");
  T value;
  std::memcpy(&value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return value;
}

std::string serialize(const std::vector<Tensor>& tensors) {
  std::string out;
  put<std::uint32_t>(out, static_cast<std::uint32_t>(tensors.size()));
  for (const auto& t : tensors) {
    put<std::uint8_t>(out, static_cast<std::uint8_t>(t.dtype()));
    put<std::uint32_t>(out, static_cast<std::uint32_t>(t.shape().size()));
    for (auto d : t.shape()) put<std::int64_t>(out, d);
    if (t.dtype() == DType::string) {
      for (std::int64_t i = 0; i < t.size(); ++i) {
        const std::string& s = t.data<std::string>()[i];
        put<std::uint64_t>(out, s.size());
        out += s;
      }
    } else {
      out.append(static_cast<const char*>(t.raw_data()), t.nbytes());
    }
  }
  return out;
}

std::vector<Tensor> deserialize(const std::string& in) {
  std::size_t at = 0;
  std::vector<Tensor> out(take<std::uint32_t>(in, at));
  for (auto& t : out) {
    const auto dtype = static_cast<DType>(take<std::uint8_t>(in, at));
    Shape shape(take<std::uint32_t>(in, at));
    for (auto& d : shape) d = take<std::int64_t>(in, at);
    t = Tensor::empty(shape, dtype);
    if (dtype == DType::string) {
      for (std::int64_t i = 0; i < t.size(); ++i) {
        const auto n = take<std::uint64_t>(in, at);
        if (at + n > in.size()) throw ValueError("a replica sent truncated predict outputs");
        t.data<std::string>()[i].assign(in, at, n);
        at += n;
      }
    } else {
      if (at + t.nbytes() > in.size()) throw ValueError("a replica sent truncated predict outputs");
      std::memcpy(t.raw_data(), in.data() + at, t.nbytes());
      at += t.nbytes();
    }
  }
  return out;
}
}  // namespace
ReplicaSync* active_replica_sync() { return active; }

ReplicaSync* set_active_replica_sync(ReplicaSync* sync) { return std::exchange(active, sync); }

std::pair<std::int64_t, std::int64_t> ReplicaSync::shard(std::int64_t rows) const {
  const std::int64_t n = num_replicas(), r = replica_id();
  return {rows * r / n, rows * (r + 1) / n};
}

Batch ReplicaSync::shard(const Batch& global) const {
  const auto range = shard(global.x.empty() || !global.x[0].defined() ? 0 : global.x[0].dim(0));
  return global.rows(range.first, range.second);
}

Logs ReplicaSync::aggregate(const Logs& local, double rows, bool& stop, const LoggedMetrics& metrics) {
  LoggedMetrics summable;  // the logged metrics whose state adds up, their own states, and all of them in a row
  std::vector<std::vector<double>> own;
  std::vector<double> states;
  for (const auto& [name, metric] : metrics) {
    if (!local.contains(name)) continue;
    std::vector<double> state = metric->state();
    if (state.empty()) continue;
    summable.emplace_back(name, metric);
    states.insert(states.end(), state.begin(), state.end());
    own.push_back(std::move(state));
  }
  const auto size = double(states.size());
  std::vector<double> values{rows, stop ? 1.0 : 0.0, size, size * size};
  for (const auto& [key, value] : local) values.push_back(value * rows);
  allreduce_sum(values);
  stop = values[1] > 0;
  Logs global;
  std::size_t i = 4;
  for (const auto& [key, value] : local) global[key] = values[0] > 0 ? values[i++] / values[0] : value;
  // Every replica's states line up (the same metrics, built for the same shapes) exactly when their sizes are
  // all equal: (sum of sizes)^2 = replicas * (sum of squared sizes).
  if (values[2] == 0 || values[2] * values[2] != double(num_replicas()) * values[3]) return global;
  allreduce_sum(states);
  auto at = states.begin();
  for (std::size_t m = 0; m < summable.size(); ++m) {
    auto& [name, metric] = summable[m];
    metric->set_state(std::vector<double>(at, at + std::ptrdiff_t(own[m].size())));
    at += std::ptrdiff_t(own[m].size());
    global[name] = metric->result();
    metric->set_state(own[m]);
  }
  return global;
}

std::vector<Tensor> cross_replica_gradients(const std::vector<Tensor>& grads,
                                            const std::vector<std::shared_ptr<Variable>>& vars) {
  ReplicaSync* sync = active;
  if (!sync || sync->take_reduced()) return grads;
  const auto [global, local] = sync->step_rows();
  const double share = global > 0 ? double(local) / double(global) : 1.0 / sync->num_replicas();
  return sync->reduce_gradients(grads, vars, share);
}

std::vector<std::vector<Tensor>> ReplicaSync::gather(const std::vector<Tensor>& local) {
  std::vector<std::vector<Tensor>> out;
  for (const auto& bytes : allgather(serialize(local)))
    if (auto tensors = deserialize(bytes); !tensors.empty()) out.push_back(std::move(tensors));
  return out;
}

}  // namespace keras
