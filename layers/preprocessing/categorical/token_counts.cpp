#include "layers/preprocessing/categorical/token_counts.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace keras::layers::preprocessing {

namespace {
// Counts one more occurrence of `token` (a string is copied into the map only when it is new).
template <class Map, class View>
void increment(Map& map, View token) {
  auto it = map.find(token);
  if (it == map.end()) it = map.emplace(typename Map::key_type(token), 0).first;
  ++it->second;
}
}  // namespace

template <class Token>
void TokenCounts<Token>::add_document(const std::vector<View>& tokens) {
  std::unordered_set<View> seen;
  for (const auto& t : tokens) {
    increment(counts_, t);
    if (seen.insert(t).second) increment(document_counts_, t);
  }
  ++documents_;
}

template <class Token>
void TokenCounts<Token>::clear() {
  counts_.clear();
  document_counts_.clear();
  documents_ = 0;
}

template <class Token>
std::vector<Token> TokenCounts<Token>::ranked(const std::vector<Token>& excluded, std::int64_t max_tokens) const {
  std::vector<const std::pair<const Token, std::int64_t>*> entries;
  for (const auto& e : counts_)
    if (std::find(excluded.begin(), excluded.end(), e.first) == excluded.end()) entries.push_back(&e);
  std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
    if (a->second != b->second) return a->second > b->second;
    return a->first > b->first;  // std::string compares bytes as unsigned, as NumPy sorts bytes
  });
  if (max_tokens >= 0 && entries.size() > static_cast<std::size_t>(max_tokens)) entries.resize(static_cast<std::size_t>(max_tokens));
  std::vector<Token> out;
  out.reserve(entries.size());
  for (const auto* e : entries) out.push_back(e->first);
  return out;
}

template <class Token>
std::vector<float> TokenCounts<Token>::idf(const std::vector<Token>& tokens) const {
  std::vector<float> out;
  out.reserve(tokens.size());
  for (const auto& t : tokens) {
    auto it = document_counts_.find(t);
    const double df = it == document_counts_.end() ? 0.0 : static_cast<double>(it->second);
    out.push_back(static_cast<float>(std::log(1.0 + static_cast<double>(documents_) / (1.0 + df))));
  }
  return out;
}

template class TokenCounts<std::string>;
template class TokenCounts<std::int64_t>;

}  // namespace keras::layers::preprocessing
