// TextVectorization: Keras's docstring examples (adapt then int output padded to output_sequence_length; a
// given vocabulary with '' and '[UNK]' in front), each standardization and split, n-grams, padding and
// truncation, multi_hot/count/tf_idf, adapt on a Dataset, errors, and saving (config, .h5, .keras assets).
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/zip_archive.hpp"
#include "temp_dir.hpp"

using namespace keras;
using Catch::Contains;
using Strings = std::vector<std::string>;

namespace {
Tensor strings(const Strings& v, const Shape& shape) { return Tensor::from_vector<std::string>(v, shape); }
Tensor column(const Strings& v) { return strings(v, {static_cast<std::int64_t>(v.size()), 1}); }
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
}  // namespace

TEST_CASE("TextVectorization reproduces Keras's docstring examples", "[preprocessing][text]") {
  layers::TextVectorization vectorize({.max_tokens = 5000, .output_mode = "int", .output_sequence_length = 4});
  vectorize.adapt(strings({"foo bar", "bar baz", "baz bada boom"}, {3}));
  const Tensor out = vectorize(column({"foo qux bar", "qux baz"}));
  CHECK(out.dtype() == DType::int64);
  CHECK(out.shape() == Shape{2, 4});
  CHECK(values(out) == std::vector<float>{4, 1, 3, 0, 1, 2, 0, 0});
  CHECK(vectorize.get_vocabulary() == Strings{"", "[UNK]", "baz", "bar", "foo", "boom", "bada"});

  layers::TextVectorization given(
      {.max_tokens = 5000, .output_sequence_length = 4, .vocabulary = Strings{"earth", "wind", "and", "fire"}});
  CHECK(given.get_vocabulary() == Strings{"", "[UNK]", "earth", "wind", "and", "fire"});
  CHECK(values(given(strings({"Earth, Wind and FIRE!", "water"}, {2}))) == std::vector<float>{2, 3, 4, 5, 1, 0, 0, 0});
}

TEST_CASE("TextVectorization standardizes and splits as Keras's options say", "[preprocessing][text]") {
  const Strings vocab{"hello", "world", "Hello", "world!", "hello,"};
  const Tensor text = column({"Hello, world!"});
  auto ids = [&](layers::TextVectorizationOptions o) {
    o.vocabulary = vocab;
    return values(layers::TextVectorization(o)(text));
  };
  CHECK(ids({}) == std::vector<float>{2, 3});                                          // lower + strip
  CHECK(ids({.standardize = "lower"}) == std::vector<float>{6, 5});                    // "hello," "world!"
  CHECK(ids({.standardize = "strip_punctuation"}) == std::vector<float>{4, 3});        // "Hello" "world"
  CHECK(ids({.standardize = std::nullopt}) == std::vector<float>{1, 5});               // "Hello," "world!"
  CHECK(ids({.standardize_fn = [](const std::string& s) { return s.substr(0, 5); }}) == std::vector<float>{4});
  // split "character" gives code points; no split keeps each string as one token.
  layers::TextVectorization chars({.split = "character", .vocabulary = Strings{"a", "\xC3\xA9"}});
  CHECK(values(chars(column({"A\xC3\xA9!a"}))) == std::vector<float>{2, 3, 2});
  layers::TextVectorization whole({.split = std::nullopt, .vocabulary = Strings{"new york", "paris"}});
  CHECK(values(whole(column({"New York", "Paris!", "rome"}))) == std::vector<float>{2, 3, 1});
  auto bars = [](const std::string& s) {  // splits on '|' only
    Strings out;
    std::size_t start = 0, at;
    while ((at = s.find('|', start)) != std::string::npos) {
      out.push_back(s.substr(start, at - start));
      start = at + 1;
    }
    out.push_back(s.substr(start));
    return out;
  };
  layers::TextVectorization custom({.standardize = "lower", .vocabulary = Strings{"a b", "c"}, .split_fn = bars});
  CHECK(values(custom(column({"a b|c|d"}))) == std::vector<float>{2, 3, 1});
}

TEST_CASE("TextVectorization makes n-grams, pads at the end and truncates", "[preprocessing][text]") {
  layers::TextVectorization bigrams({.ngrams = std::vector<std::int64_t>{1, 2}, .vocabulary = Strings{"a", "b", "a b", "b c"}});
  // Unigrams then bigrams, as tf.strings.ngrams orders them: a b c | a b, b c.
  CHECK(values(bigrams(column({"a b c"}))) == std::vector<float>{2, 3, 1, 4, 5});
  layers::TextVectorization ragged({.vocabulary = Strings{"x", "y"}});
  const Tensor padded = ragged(column({"x", "x y x y", ""}));
  CHECK(padded.shape() == Shape{3, 4});  // the longest row, without output_sequence_length
  CHECK(values(padded) == std::vector<float>{2, 0, 0, 0, 2, 3, 2, 3, 0, 0, 0, 0});
  layers::TextVectorization cut({.output_sequence_length = 2, .vocabulary = Strings{"x", "y"}});
  CHECK(values(cut(column({"y x x", "x"}))) == std::vector<float>{3, 2, 2, 0});
}

TEST_CASE("TextVectorization encodes multi_hot, count and tf_idf over its vocabulary", "[preprocessing][text]") {
  const Tensor docs = strings({"the cat the hat", "the dog", "a cat"}, {3});
  layers::TextVectorization multi({.output_mode = "multi_hot"});
  multi.adapt(docs);
  // the: 3, cat: 2, then hat, dog, a (once each, descending); the OOV slot first, no mask slot.
  CHECK(multi.get_vocabulary() == Strings{"[UNK]", "the", "cat", "hat", "dog", "a"});
  CHECK(values(multi(strings({"the the fish"}, {1}))) == std::vector<float>{1, 1, 0, 0, 0, 0});
  layers::TextVectorization count({.output_mode = "count", .vocabulary = multi.get_vocabulary()});
  CHECK(values(count(strings({"the the fish"}, {1}))) == std::vector<float>{1, 2, 0, 0, 0, 0});

  layers::TextVectorization tf_idf({.output_mode = "tf_idf"});
  tf_idf.adapt(docs);
  // "the" is in 2 of 3 documents: idf = log(1 + 3 / 3); "a" in 1: log(1 + 3 / 2).
  const auto v = values(tf_idf(strings({"the the a"}, {1})));
  CHECK(v[1] == Approx(2 * std::log(2.0)));
  CHECK(v[5] == Approx(std::log(2.5)));
  CHECK(v[2] == 0);
  layers::TextVectorization padded({.max_tokens = 10, .output_mode = "multi_hot", .pad_to_max_tokens = true});
  padded.adapt(docs);
  CHECK(padded(strings({"cat"}, {1})).shape() == Shape{1, 10});
}

TEST_CASE("TextVectorization adapts on a Dataset as on arrays, and caps with max_tokens", "[preprocessing][text]") {
  const Tensor docs = strings({"b a", "c a", "a d", "b"}, {4});
  layers::TextVectorization from_array;
  from_array.adapt(docs);
  layers::TextVectorization from_dataset;
  from_dataset.adapt(data::Dataset::from_tensor_slices(docs).batch(3));
  CHECK(from_dataset.get_vocabulary() == from_array.get_vocabulary());
  CHECK(from_array.get_vocabulary() == Strings{"", "[UNK]", "a", "b", "d", "c"});
  layers::TextVectorization capped({.max_tokens = 4});
  capped.adapt(docs);
  CHECK(capped.get_vocabulary() == Strings{"", "[UNK]", "a", "b"});
}

TEST_CASE("TextVectorization's errors name the layer and the fix", "[preprocessing][text]") {
  CHECK_THROWS_WITH(layers::TextVectorization({.standardize = "upper"}), Contains("standardize") && Contains("upper"));
  CHECK_THROWS_WITH(layers::TextVectorization({.output_mode = "multi_hot", .output_sequence_length = 3}),
                    Contains("output_sequence_length"));
  layers::TextVectorization layer({.vocabulary = Strings{"a"}, .name = "words"});
  CHECK_THROWS_WITH(layer(strings({"a", "b", "c", "d"}, {2, 2})), Contains("words") && Contains("last dimension"));
  CHECK_THROWS_WITH(layer(Tensor::zeros({2, 1})), Contains("words") && Contains("string"));
  CHECK_THROWS_AS(layers::TextVectorization({.vocabulary_file = "/nonexistent/words.txt"}), IOError);
}

TEST_CASE("TextVectorization keeps its vocabulary and idf weights through config, .h5 and .keras", "[preprocessing][text]") {
  keras_test::TempDir dir("text_vectorization");
  const Tensor docs = strings({"the cat sat", "the dog ran", "a cat ran fast"}, {3});
  for (const std::string mode : {"int", "tf_idf"}) {
    auto vectorize = std::make_shared<layers::TextVectorization>(
        layers::TextVectorizationOptions{.output_mode = mode, .output_sequence_length =
                                             mode == "int" ? std::optional<std::int64_t>(5) : std::nullopt});
    vectorize->adapt(docs);
    const json config = vectorize->get_config();
    CHECK(config["standardize"] == "lower_and_strip_punctuation");
    CHECK(config["split"] == "whitespace");
    CHECK(config["vocabulary_size"] == vectorize->vocabulary_size());
    auto copy = layers::TextVectorization::from_config(config);
    CHECK(values((*copy)(docs)) == values((*vectorize)(docs)));

    auto in = Input({1}, {.dtype = DType::string});
    auto x = (*vectorize)(in);
    Model model(in, layers::Dense(3)(mode == "int" ? layers::Embedding(12, 4)(x) : x));
    const Tensor test = column({"the cat ran", "unknown words here"});
    const auto want = model.predict(test).to_vector<float>();
    for (const std::string file : {"t_" + mode + ".h5", "t_" + mode + ".keras"}) {
      model.save(dir / file);
      CHECK(models::load_model(dir / file)->predict(test).to_vector<float>() == want);
    }
    saving::ZipReader zip(dir / ("t_" + mode + ".keras"));
    CHECK(zip.has("assets/layers/text_vectorization/vocabulary.txt"));
  }
}
