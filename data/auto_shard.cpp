#include "data/auto_shard.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::data {
namespace {
thread_local FileShardScope* active = nullptr;
}  // namespace

std::string auto_shard_policy_name(AutoShardPolicy policy) {
  switch (policy) {
    case AutoShardPolicy::AUTO: return "AUTO";
    case AutoShardPolicy::FILE: return "FILE";
    case AutoShardPolicy::DATA: return "DATA";
    case AutoShardPolicy::OFF: return "OFF";
  }
  return "?";
}

FileShardScope::FileShardScope(std::int64_t num_shards, std::int64_t index, AutoShardPolicy policy)
    : num_shards_(num_shards), index_(index), policy_(policy), previous_(active) {
  active = this;
}

FileShardScope::~FileShardScope() { active = previous_; }

FileStride file_stride(std::size_t num_files, const char* source) {
  FileShardScope* scope = active;
  if (!scope || scope->seen_) return {};
  scope->seen_ = true;  // only the outermost file list is split
  const auto n = static_cast<std::size_t>(scope->num_shards_);
  if (scope->policy_ == AutoShardPolicy::DATA || scope->policy_ == AutoShardPolicy::OFF) return {};
  if (num_files < n) {
    if (scope->policy_ == AutoShardPolicy::AUTO) return {};  // too few files: shard by data instead
    throw ValueError(fmt::format("{} reads {} file(s) for {} replicas with AutoShardPolicy.FILE; every replica needs at "
                                 "least one file: write more (smaller) files or use AutoShardPolicy.DATA",
                                 source, num_files, n));
  }
  scope->applied_ = true;
  return {static_cast<std::size_t>(scope->index_), n};
}

std::vector<std::string> files_of_this_replica(const std::vector<std::string>& files, const char* source) {
  const FileStride stride = file_stride(files.size(), source);
  if (stride.step == 1) return files;
  std::vector<std::string> mine;
  for (std::size_t i = stride.first; i < files.size(); i += stride.step) mine.push_back(files[i]);
  return mine;
}

}  // namespace keras::data
