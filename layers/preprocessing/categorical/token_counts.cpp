#include "layers/preprocessing/categorical/token_counts.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace keras::layers::preprocessing {

void TokenCounts::add_document(const std::vector<std::string_view>& tokens) {
  std::unordered_set<std::string_view> seen;
  for (const auto& t : tokens) {
    auto it = counts_.find(t);
    if (it == counts_.end()) it = counts_.emplace(std::string(t), 0).first;
    ++it->second;
    if (seen.insert(t).second) {
      auto d = document_counts_.find(t);
      if (d == document_counts_.end()) d = document_counts_.emplace(std::string(t), 0).first;
      ++d->second;
    }
  }
  ++documents_;
}

void TokenCounts::clear() {
  counts_.clear();
  document_counts_.clear();
  documents_ = 0;
}

std::vector<std::string> TokenCounts::ranked(const std::vector<std::string>& excluded, std::int64_t max_tokens) const {
  std::vector<const std::pair<const std::string, std::int64_t>*> entries;
  for (const auto& e : counts_)
    if (std::find(excluded.begin(), excluded.end(), e.first) == excluded.end()) entries.push_back(&e);
  std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
    if (a->second != b->second) return a->second > b->second;
    return a->first > b->first;  // std::string compares bytes as unsigned, as NumPy sorts bytes
  });
  if (max_tokens >= 0 && entries.size() > static_cast<std::size_t>(max_tokens)) entries.resize(static_cast<std::size_t>(max_tokens));
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const auto* e : entries) out.push_back(e->first);
  return out;
}

std::vector<float> TokenCounts::idf(const std::vector<std::string>& tokens) const {
  std::vector<float> out;
  out.reserve(tokens.size());
  for (const auto& t : tokens) {
    auto it = document_counts_.find(t);
    const double df = it == document_counts_.end() ? 0.0 : static_cast<double>(it->second);
    out.push_back(static_cast<float>(std::log(1.0 + static_cast<double>(documents_) / (1.0 + df))));
  }
  return out;
}

}  // namespace keras::layers::preprocessing
