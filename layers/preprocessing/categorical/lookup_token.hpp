#pragma once
// The token types of the lookup layers (StringLookup: UTF-8 strings; IntegerLookup: int64), and what
// IndexLookup needs to know of each: how a token is viewed without a copy, the map from tokens to indices,
// how the token is written in a vocabulary file (one a line) and read back, and which tensors hold tokens.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <functional>
#include <unordered_map>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/tensor.hpp"

namespace keras::layers::preprocessing {

/// A string hash that also takes string_views, so maps keyed by std::string find views without a copy.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

template <class Token>
struct LookupToken;

template <>
struct LookupToken<std::string> {
  using View = std::string_view;
  template <class V>
  using Map = StringMap<V>;
  static constexpr DType dtype = DType::string;
  static constexpr const char* kind = "strings";
  static bool holds_tokens(DType d) { return d == DType::string; }
  static std::string text(View token) { return std::string(token); }
  static std::string parse(const std::string& line, const std::string& /*who*/) { return line; }
};

template <>
struct LookupToken<std::int64_t> {
  using View = std::int64_t;
  template <class V>
  using Map = std::unordered_map<std::int64_t, V>;
  static constexpr DType dtype = DType::int64;
  static constexpr const char* kind = "integers";
  /// Any numeric tensor (cast to int64, as Keras's ensure_tensor(dtype="int64")); strings are refused.
  static bool holds_tokens(DType d) { return d != DType::string; }
  static std::string text(View token) { return std::to_string(token); }
  static std::int64_t parse(const std::string& line, const std::string& who) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), v);
    if (ec != std::errc() || end != line.data() + line.size())
      throw ValueError(fmt::format("{}: the vocabulary line '{}' is not an integer; an IntegerLookup vocabulary holds "
                                   "one integer a line",
                                   who, line));
    return v;
  }
};

}  // namespace keras::layers::preprocessing
