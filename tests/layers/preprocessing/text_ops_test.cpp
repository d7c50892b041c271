// TextVectorization's string operations and adapt()'s token counts, against TensorFlow's documented behaviour:
// tf.strings.lower (ASCII by default), Keras's punctuation regex, tf.strings.split, unicode_split and ngrams,
// and IndexLookup's vocabulary order (count, then token bytes, both descending) and idf formula.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "layers/preprocessing/categorical/token_counts.hpp"
#include "layers/preprocessing/text/text_ops.hpp"

namespace pp = keras::layers::preprocessing;
using Strings = std::vector<std::string>;

TEST_CASE("lower_ascii lowercases ASCII letters only, as tf.strings.lower with its default encoding", "[preprocessing][text]") {
  // tf.strings.lower("CamelCase string and ALL CAPS") == b'camelcase string and all caps' (its docstring).
  CHECK(pp::lower_ascii("CamelCase string and ALL CAPS") == "camelcase string and all caps");
  CHECK(pp::lower_ascii("\xC3\x89" "COLE 42") == "\xC3\x89" "cole 42");  // "ÉCOLE": É is not ASCII, it stays
}

TEST_CASE("strip_punctuation removes exactly Python's string.punctuation", "[preprocessing][text]") {
  const std::string punctuation = R"(!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~)";
  CHECK(punctuation.size() == 32);
  CHECK(pp::strip_punctuation(punctuation).empty());
  CHECK(pp::strip_punctuation("Hello, world! It's 3.14 -- (ok)?") == "Hello world Its 314  ok");
  // Letters, digits, spaces and non-ASCII characters (including Unicode punctuation) stay, as Keras's regex keeps them.
  CHECK(pp::strip_punctuation("caf\xC3\xA9 \xC2\xBF" "que\xE2\x80\x94" "tal") == "caf\xC3\xA9 \xC2\xBF" "que\xE2\x80\x94" "tal");
  CHECK(pp::strip_punctuation("a\tb\nc") == "a\tb\nc");
}

TEST_CASE("split_whitespace splits on runs of ASCII whitespace, as tf.strings.split without sep", "[preprocessing][text]") {
  CHECK(pp::split_whitespace("  hello   world \t\n foo ") == Strings{"hello", "world", "foo"});
  CHECK(pp::split_whitespace("").empty());
  CHECK(pp::split_whitespace(" \t ").empty());
  CHECK(pp::split_whitespace("a\vb\fc\rd") == Strings{"a", "b", "c", "d"});
  CHECK(pp::split_whitespace("no\xC2\xA0" "break") == Strings{"no\xC2\xA0" "break"});  // U+00A0 is not ASCII space
}

TEST_CASE("split_characters gives one piece per UTF-8 code point", "[preprocessing][text]") {
  // tf.strings.unicode_split('Hello', 'UTF-8') and a string of 1-, 2-, 3- and 4-byte characters.
  CHECK(pp::split_characters("Hello") == Strings{"H", "e", "l", "l", "o"});
  CHECK(pp::split_characters("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80") ==
        Strings{"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"});
  CHECK(pp::split_characters("a\xFF" "b\xC3") == Strings{"a", "\xFF", "b", "\xC3"});  // invalid bytes stand alone
  CHECK(pp::split_characters("\xC0\xAF") == Strings{"\xC0", "\xAF"});  // an overlong '/' is not one character
}

TEST_CASE("ngrams gives each width's n-grams in order, as tf.strings.ngrams", "[preprocessing][text]") {
  // tf.strings.ngrams(["A", "B", "C", "D"], 2) == [b'A B', b'B C', b'C D'] (its docstring).
  CHECK(pp::ngrams({"A", "B", "C", "D"}, {2}) == Strings{"A B", "B C", "C D"});
  CHECK(pp::ngrams({"a", "b", "c"}, {1, 2, 3}) == Strings{"a", "b", "c", "a b", "b c", "a b c"});
  CHECK(pp::ngrams({"a", "b"}, {3}).empty());  // no short sequences kept (preserve_short_sequences=False)
  CHECK(pp::ngrams({"a", "b", "c"}, {3, 1}) == Strings{"a b c", "a", "b", "c"});
}

TEST_CASE("TokenCounts ranks by count then token descending, and computes Keras's idf", "[preprocessing][text]") {
  pp::TokenCounts counts;
  // StringLookup's docstring: adapt([["a", "c", "d"], ["d", "z", "b"]]) → ['[UNK]', 'd', 'z', 'c', 'b', 'a'].
  counts.add_document({"a", "c", "d"});
  counts.add_document({"d", "z", "b"});
  CHECK(counts.ranked({"[UNK]"}, -1) == Strings{"d", "z", "c", "b", "a"});
  CHECK(counts.ranked({"[UNK]"}, 2) == Strings{"d", "z"});
  CHECK(counts.ranked({"d"}, -1) == Strings{"z", "c", "b", "a"});
  // Bytes compare unsigned: "\xC3\xA9" (é) sorts after every ASCII token.
  pp::TokenCounts bytes;
  bytes.add_document({"z", "\xC3\xA9", "a"});
  CHECK(bytes.ranked({}, -1) == Strings{"\xC3\xA9", "z", "a"});
  // idf = log(1 + documents / (1 + documents holding the token)); repeats in a document count once.
  pp::TokenCounts docs;
  docs.add_document({"x", "x", "y"});
  docs.add_document({"x"});
  docs.add_document({"z"});
  const auto idf = docs.idf({"x", "y", "z", "w"});
  CHECK(idf[0] == Approx(std::log(1.0 + 3.0 / 3.0)));
  CHECK(idf[1] == Approx(std::log(1.0 + 3.0 / 2.0)));
  CHECK(idf[2] == Approx(std::log(1.0 + 3.0 / 2.0)));
  CHECK(idf[3] == Approx(std::log(1.0 + 3.0 / 1.0)));
  CHECK(docs.ranked({}, -1) == Strings{"x", "z", "y"});
}
