#pragma once
// tf.data.Options: settings for a whole pipeline, attached with Dataset::with_options and read back
// with Dataset::options(). The iterators of the pipeline see them through a per-thread context.
#include <cstdint>
#include <optional>

#include "data/auto_shard_policy.hpp"

namespace keras::data {

struct ThreadingOptions {
  /// Caps the threads any one parallel transformation (map, batch) of the pipeline uses.
  std::optional<std::int64_t> private_threadpool_size{};
  /// OpenMP threads each tensor op inside the pipeline may use (default 1: the training step keeps the cores).
  std::optional<std::int64_t> max_intra_op_parallelism{};
  bool operator==(const ThreadingOptions&) const = default;
};

/// tf.data.experimental.DistributeOptions.
struct DistributeOptions {
  /// How a distribution strategy splits the pipeline among replicas (unset: AUTO).
  std::optional<AutoShardPolicy> auto_shard_policy{};
  bool operator==(const DistributeOptions&) const = default;
};

struct Options {
  /// false lets parallel transformations whose own `deterministic` is unset yield out of order.
  std::optional<bool> deterministic{};
  ThreadingOptions threading{};
  DistributeOptions experimental_distribute{};
  /// These options with every option `later` sets overriding them.
  Options merged_with(const Options& later) const;
  bool operator==(const Options&) const = default;
};

namespace detail {
/// The options of the pipeline whose iterator runs on this thread (empty outside one).
const Options& current_options();
/// Installs options on this thread for its lifetime (nested scopes restore the outer ones).
class OptionsScope {
 public:
  explicit OptionsScope(const Options& o);
  ~OptionsScope();
  OptionsScope(const OptionsScope&) = delete;
  OptionsScope& operator=(const OptionsScope&) = delete;

 private:
  Options saved_;
};
}  // namespace detail

}  // namespace keras::data
