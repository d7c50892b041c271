#pragma once
// What adapt() learns from tokens, as Keras's IndexLookup.update_state/finalize_state: how often each token
// occurs, and for tf_idf in how many documents (rows) it occurs. The vocabulary it yields is ordered by
// count, most frequent first, ties broken by the token in descending order (Keras's
// np.lexsort((tokens, counts))[::-1]: bytes for strings, values for integers); the idf of a token is
// log(1 + documents / (1 + its documents)).
#include <cstdint>
#include <string>
#include <vector>

#include "layers/preprocessing/categorical/lookup_token.hpp"

namespace keras::layers::preprocessing {

template <class Token = std::string>
class TokenCounts {
 public:
  using View = typename LookupToken<Token>::View;
  /// Counts one document's tokens (a row of a batch).
  void add_document(const std::vector<View>& tokens);
  void clear();
  /// The tokens by count (then token) descending, without `excluded`, at most `max_tokens` (< 0: all).
  std::vector<Token> ranked(const std::vector<Token>& excluded, std::int64_t max_tokens) const;
  /// log(1 + documents / (1 + document count)) for each token.
  std::vector<float> idf(const std::vector<Token>& tokens) const;
  bool empty() const { return counts_.empty(); }

 private:
  typename LookupToken<Token>::template Map<std::int64_t> counts_;
  typename LookupToken<Token>::template Map<std::int64_t> document_counts_;
  std::int64_t documents_ = 0;
};

extern template class TokenCounts<std::string>;
extern template class TokenCounts<std::int64_t>;

}  // namespace keras::layers::preprocessing
