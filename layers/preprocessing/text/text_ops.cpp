#include "layers/preprocessing/text/text_ops.hpp"

#include <algorithm>

#include <re2/re2.h>

#include "keras/utils/utf8.hpp"

namespace keras::layers::preprocessing {

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string strip_punctuation(std::string_view text) {
  static const RE2 pattern{re2::StringPiece(kPunctuationPattern.data(), kPunctuationPattern.size())};
  std::string out(text);
  RE2::GlobalReplace(&out, pattern, "");
  return out;
}

namespace {
// absl::ascii_isspace, which TensorFlow's StringSplitV2 uses without a separator.
bool ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

}  // namespace

std::vector<std::string> split_whitespace(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && ascii_space(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !ascii_space(text[i])) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::vector<std::string> split_characters(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = std::max<std::size_t>(utils::utf8_sequence_length(text, i), 1);  // a bad byte alone
    out.emplace_back(text.substr(i, n));
    i += n;
  }
  return out;
}

std::vector<std::string> ngrams(const std::vector<std::string>& tokens, const std::vector<std::int64_t>& widths) {
  std::vector<std::string> out;
  const auto n = static_cast<std::int64_t>(tokens.size());
  for (const std::int64_t w : widths) {
    for (std::int64_t start = 0; start + w <= n; ++start) {
      std::string gram = tokens[static_cast<std::size_t>(start)];
      for (std::int64_t k = 1; k < w; ++k) (gram += ' ') += tokens[static_cast<std::size_t>(start + k)];
      out.push_back(std::move(gram));
    }
  }
  return out;
}

}  // namespace keras::layers::preprocessing
