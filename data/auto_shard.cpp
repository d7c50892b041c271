#include "data/auto_shard.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {
thread_local FileShardScope* active = nullptr;

// File names of which a replica reads only its own, when a FileShardScope applies.
class FileListNode : public DatasetNode {
 public:
  FileListNode(Dataset names, std::size_t count, const char* source)
      : names_(std::move(names)), count_(count), source_(source) {}
  std::int64_t cardinality() const override { return names_.cardinality(); }
  ElementSpec element_spec() const override { return names_.element_spec(); }
  std::vector<const DatasetNode*> inputs() const override { return {names_.node().get()}; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      IteratorPtr in;
      FileStride stride;
      std::size_t at = 0;  // names read from `in`
      std::optional<Element> next() override {
        for (auto e = in->next(); e; e = in->next())
          if (at++ % stride.step == stride.first) return e;
        return std::nullopt;
      }
      json save() const override { return {{"at", at}, {"input", in->save()}}; }
      void restore(const json& s) override {
        at = s.at("at");
        in->restore(s.at("input"));
      }
    };
    auto it = std::make_unique<It>();
    it->stride = file_stride(count_, source_);
    it->in = names_.node()->make_iterator();
    return it;
  }

 private:
  Dataset names_;
  std::size_t count_;
  const char* source_;
};

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

Dataset shardable_file_names(Dataset names, std::size_t count, const char* source) {
  return Dataset(std::make_shared<FileListNode>(std::move(names), count, source));
}

std::vector<std::string> files_of_this_replica(const std::vector<std::string>& files, const char* source) {
  const FileStride stride = file_stride(files.size(), source);
  if (stride.step == 1) return files;
  std::vector<std::string> mine;
  for (std::size_t i = stride.first; i < files.size(); i += stride.step) mine.push_back(files[i]);
  return mine;
}

}  // namespace keras::data
