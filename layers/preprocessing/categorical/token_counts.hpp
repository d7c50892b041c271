#pragma once
// What adapt() learns from string tokens, as Keras's IndexLookup.update_state/finalize_state: how often
// each token occurs, and for tf_idf in how many documents (rows) it occurs. The vocabulary it yields is
// ordered by count, most frequent first, ties broken by the token bytes in descending order (Keras's
// np.lexsort((tokens, counts))[::-1]); the idf of a token is log(1 + documents / (1 + its documents)).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keras::layers::preprocessing {

/// A string hash that also takes string_views, so maps keyed by std::string find views without a copy.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

class TokenCounts {
 public:
  /// Counts one document's tokens (a row of a batch).
  void add_document(const std::vector<std::string_view>& tokens);
  void clear();
  /// The tokens by count (then bytes) descending, without `excluded`, at most `max_tokens` (< 0: all).
  std::vector<std::string> ranked(const std::vector<std::string>& excluded, std::int64_t max_tokens) const;
  /// log(1 + documents / (1 + document count)) for each token.
  std::vector<float> idf(const std::vector<std::string>& tokens) const;
  bool empty() const { return counts_.empty(); }

 private:
  StringMap<std::int64_t> counts_;
  StringMap<std::int64_t> document_counts_;
  std::int64_t documents_ = 0;
};

}  // namespace keras::layers::preprocessing
