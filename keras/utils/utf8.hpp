#pragma once
// UTF-8 decoding and encoding for string tensors: NumPy's '<U' arrays (UTF-32) and TextVectorization's
// character split. A sequence is valid when it is the shortest form of a code point up to U+10FFFF that is
// not a surrogate.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace keras::utils {

/// The length of the valid UTF-8 sequence at text[i], or 0 when none starts there.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);
/// The code points of `text`, or none when it is not valid UTF-8.
std::optional<std::u32string> utf8_to_utf32(std::string_view text);
/// `cp` appended to `out` in UTF-8; false (nothing appended) for a surrogate or a value above U+10FFFF.
bool append_utf8(std::string& out, char32_t cp);

}  // namespace keras::utils
