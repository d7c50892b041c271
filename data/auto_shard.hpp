#pragma once
// How a Dataset is split among the replicas of a distribution strategy (data/auto_shard_policy.hpp).
// DATA: every replica reads the whole pipeline and keeps its rows of each global batch. FILE: each
// replica reads only its files (every N-th of the first file list the pipeline opens: list_files,
// TFRecordDataset, TextLineDataset, CsvDataset/make_csv_dataset) and trains on its own batches, each
// global batch of B rows split into N per-replica batches. AUTO (the default): FILE when the pipeline
// reads at least N files, else DATA. OFF: every replica reads everything (N copies of each epoch).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/auto_shard_policy.hpp"
#include "data/dataset.hpp"

namespace keras::data {

/// While alive, the first file list a file-reading source opens on this thread (when it makes its
/// iterator) is reduced to this replica's files, if the policy allows (AUTO: only with at least
/// `num_shards` files; FILE: fewer files is an error; DATA, OFF: never).
class FileShardScope {
 public:
  FileShardScope(std::int64_t num_shards, std::int64_t index, AutoShardPolicy policy);
  ~FileShardScope();
  FileShardScope(const FileShardScope&) = delete;
  FileShardScope& operator=(const FileShardScope&) = delete;
  /// True when a file-reading source consulted this scope (made its iterator inside it).
  bool seen() const { return seen_; }
  /// True when a source's files were split (the replicas then read different data).
  bool applied() const { return applied_; }

 private:
  friend struct FileStride file_stride(std::size_t num_files, const char* source);
  std::int64_t num_shards_, index_;
  AutoShardPolicy policy_;
  bool seen_ = false, applied_ = false;
  FileShardScope* previous_;
};

/// Which of its `num_files` files a file-reading `source` opening them now reads: every `step`-th from
/// `first` (all of them, {0, 1}, outside a FileShardScope that still applies).
struct FileStride {
  std::size_t first = 0, step = 1;
};
FileStride file_stride(std::size_t num_files, const char* source);
/// `files` reduced by file_stride.
std::vector<std::string> files_of_this_replica(const std::vector<std::string>& files, const char* source);
/// `names` (a Dataset of `count` file names, possibly shuffled), of which each replica reads only its
/// own under a FileShardScope that applies (list_files' output).
Dataset shardable_file_names(Dataset names, std::size_t count, const char* source);

}  // namespace keras::data
