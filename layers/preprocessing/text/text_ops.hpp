#pragma once
// The string operations of TextVectorization, as TensorFlow performs them inside tf.keras:
// - lower_ascii: tf.strings.lower with its default encoding "", which lowercases ASCII letters only
//   (Keras calls it that way, so "ÉCOLE" becomes "École" in Keras too);
// - strip_punctuation: tf.strings.regex_replace with Keras's pattern (the 32 characters of Python's
//   string.punctuation), through RE2 as TensorFlow does;
// - split_whitespace: tf.strings.split without a separator (runs of ASCII whitespace, none at the ends);
// - split_characters: tf.strings.unicode_split(..., "UTF-8"): one piece per code point (an invalid byte is a
//   piece of its own);
// - ngrams: tf.strings.ngrams(tokens, widths, separator=" "): every n-gram of the first width in order, then
//   the next width; a width longer than the sequence gives nothing.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keras::layers::preprocessing {

/// Keras's punctuation pattern (DEFAULT_STRIP_REGEX of text_vectorization.py).
inline constexpr std::string_view kPunctuationPattern = R"([!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\'])";

std::string lower_ascii(std::string_view text);
std::string strip_punctuation(std::string_view text);
std::vector<std::string> split_whitespace(std::string_view text);
std::vector<std::string> split_characters(std::string_view text);
std::vector<std::string> ngrams(const std::vector<std::string>& tokens, const std::vector<std::int64_t>& widths);

}  // namespace keras::layers::preprocessing
