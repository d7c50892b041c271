// StringLookup: every example of Keras's docstring (indices, adapt's order, two OOV indices hashed with FarmHash,
// one_hot, multi_hot, count, tf_idf with and without the OOV weight, invert, a forward and inverse pair), masks,
// vocabulary files, errors that name the layer, and saving with the vocabulary (config, .h5, .keras with its
// assets/ vocabulary.txt as Keras 3 writes it).
#include <fstream>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/zip_archive.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"
#include "temp_dir.hpp"

using namespace keras;
using Catch::Contains;
using Strings = std::vector<std::string>;

namespace {
Tensor strings(const Strings& v, const Shape& shape) { return Tensor::from_vector<std::string>(v, shape); }
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
const Strings kVocab = {"a", "b", "c", "d"};
const Tensor kData = strings({"a", "c", "d", "d", "z", "b"}, {2, 3});
const Tensor kData4 = strings({"a", "c", "d", "d", "d", "z", "b", "z"}, {2, 4});
}  // namespace

TEST_CASE("StringLookup maps strings to indices as Keras's docstring shows", "[preprocessing][strings]") {
  layers::StringLookup lookup({.vocabulary = kVocab});
  const Tensor out = lookup(kData);
  CHECK(out.dtype() == DType::int64);
  CHECK(out.shape() == Shape{2, 3});
  CHECK(values(out) == std::vector<float>{1, 3, 4, 4, 0, 2});

  layers::StringLookup adapted;
  adapted.adapt(kData);
  // "d" occurs twice; the others once, in descending order.
  CHECK(adapted.get_vocabulary() == Strings{"[UNK]", "d", "z", "c", "b", "a"});
  CHECK(values(adapted(kData)) == std::vector<float>{5, 3, 1, 1, 2, 4});
  CHECK(adapted.get_vocabulary(false) == Strings{"d", "z", "c", "b", "a"});
  CHECK(adapted.vocabulary_size() == 6);
}

TEST_CASE("StringLookup hashes OOV tokens into its OOV indices with FarmHash", "[preprocessing][strings]") {
  // Keras's docstring: with num_oov_indices=2, 'm' goes to 0 and 'z' to 1; the vocabulary moves up by one.
  layers::StringLookup lookup({.num_oov_indices = 2, .vocabulary = kVocab});
  CHECK(values(lookup(strings({"a", "c", "d", "m", "z", "b"}, {2, 3}))) == std::vector<float>{2, 4, 5, 0, 1, 3});
  // Every OOV token lands on fingerprint64 mod num_oov_indices, after the mask when there is one.
  layers::StringLookup five({.num_oov_indices = 5, .mask_token = "", .vocabulary = kVocab});
  const Strings unknown = {"x", "yy", "zebra", "\xC3\xA9t\xC3\xA9", "42"};
  const auto got = values(five(strings(unknown, {5})));
  for (std::size_t i = 0; i < unknown.size(); ++i)
    CHECK(got[i] == float(1 + layers::preprocessing::fingerprint64(unknown[i]) % 5));
  CHECK(values(five(strings({"", "a"}, {2}))) == std::vector<float>{0, 6});
  // A salt switches to SipHash-2-4 keyed by it, as to_hash_bucket_strong.
  layers::StringLookup salted({.num_oov_indices = 7, .vocabulary = kVocab, .salt = std::vector<std::uint64_t>{5, 9}});
  CHECK(values(salted(strings({"zebra"}, {1})))[0] ==
        float(layers::preprocessing::hash_bucket("zebra", 7, std::array<std::uint64_t, 2>{5, 9})));
}

TEST_CASE("StringLookup encodes one_hot, multi_hot, count and tf_idf as Keras's docstring shows", "[preprocessing][strings]") {
  layers::StringLookup one_hot({.vocabulary = kVocab, .output_mode = "one_hot"});
  const Tensor oh = one_hot(strings({"a", "b", "c", "d", "z"}, {5}));
  CHECK(oh.shape() == Shape{5, 5});
  CHECK(values(oh) == std::vector<float>{0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0});
  CHECK(values(layers::StringLookup({.vocabulary = kVocab, .output_mode = "multi_hot"})(kData4)) ==
        std::vector<float>{0, 1, 0, 1, 1, 1, 0, 1, 0, 1});
  CHECK(values(layers::StringLookup({.vocabulary = kVocab, .output_mode = "count"})(kData4)) ==
        std::vector<float>{0, 1, 0, 1, 2, 2, 0, 1, 0, 1});

  // tf_idf: the OOV slot takes the mean of the given weights (0.5) unless the vocabulary gives it.
  layers::StringLookup tf_idf({.output_mode = "tf_idf"});
  tf_idf.set_vocabulary(kVocab, std::vector<float>{0.25f, 0.75f, 0.6f, 0.4f});
  const auto t = values(tf_idf(kData4));
  const std::vector<float> want{0, 0.25f, 0, 0.6f, 0.8f, 1.0f, 0, 0.75f, 0, 0.4f};
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(t[i] == Approx(want[i]));
  layers::StringLookup with_oov({.output_mode = "tf_idf"});
  with_oov.set_vocabulary({"[UNK]", "a", "b", "c", "d"}, std::vector<float>{0.9f, 0.25f, 0.75f, 0.6f, 0.4f});
  CHECK(values(with_oov(kData4))[5] == Approx(1.8f));

  // adapt in tf_idf: idf = log(1 + documents / (1 + documents holding the token)), OOV the mean.
  layers::StringLookup learned({.output_mode = "tf_idf"});
  learned.adapt(kData4);
  CHECK(learned.get_vocabulary() == Strings{"[UNK]", "d", "z", "c", "b", "a"});
  const auto& idf = learned.idf_weights();
  REQUIRE(idf.size() == 6);
  const float d_idf = float(std::log(1.0 + 2.0 / 3.0)), other = float(std::log(1.0 + 2.0 / 2.0));
  CHECK(idf[1] == Approx(d_idf));
  CHECK(idf[2] == Approx(other));
  CHECK(idf[0] == Approx((d_idf + 4 * other) / 5));
}

TEST_CASE("StringLookup inverts indices to strings, and pairs with a forward lookup", "[preprocessing][strings]") {
  layers::StringLookup invert({.vocabulary = kVocab, .invert = true});
  const Tensor ids = Tensor::from_vector<std::int64_t>({1, 3, 4, 4, 0, 2}, {2, 3});
  const Tensor words = invert(ids);
  CHECK(words.dtype() == DType::string);
  CHECK(words.shape() == Shape{2, 3});
  CHECK(words.to_vector<std::string>() == Strings{"a", "c", "d", "d", "[UNK]", "b"});
  layers::StringLookup forward({.vocabulary = kVocab});
  CHECK(invert(forward(kData)).to_vector<std::string>() == Strings{"a", "c", "d", "d", "[UNK]", "b"});
  // An index past the vocabulary is the OOV token too.
  CHECK(invert(Tensor::from_vector<std::int64_t>({99}, {1})).to_vector<std::string>() == Strings{"[UNK]"});
}

TEST_CASE("StringLookup's mask token, max_tokens and pad_to_max_tokens follow Keras's index layout", "[preprocessing][strings]") {
  layers::StringLookup masked({.mask_token = "", .vocabulary = kVocab});
  CHECK(masked.get_vocabulary() == Strings{"", "[UNK]", "a", "b", "c", "d"});
  CHECK(values(masked(strings({"a", "", "z", "d"}, {4}))) == std::vector<float>{2, 0, 1, 5});
  // Outside int mode the mask is dropped and the OOV index comes first.
  layers::StringLookup masked_hot({.mask_token = "", .vocabulary = kVocab, .output_mode = "multi_hot"});
  CHECK(values(masked_hot(strings({"a", "", "", "z"}, {1, 4}))) == std::vector<float>{1, 1, 0, 0, 0});
  // max_tokens counts the special tokens; adapt keeps the most frequent.
  layers::StringLookup capped({.max_tokens = 3});
  capped.adapt(strings({"x", "x", "x", "y", "y", "z"}, {6}));
  CHECK(capped.get_vocabulary() == Strings{"[UNK]", "x", "y"});
  layers::StringLookup padded({.max_tokens = 8, .vocabulary = kVocab, .output_mode = "count", .pad_to_max_tokens = true});
  CHECK(padded(kData4).shape() == Shape{2, 8});
  // A vocabulary given with its special tokens in front is taken without them.
  layers::StringLookup again({.vocabulary = Strings{"[UNK]", "a", "b"}});
  CHECK(again.get_vocabulary() == Strings{"[UNK]", "a", "b"});
}

TEST_CASE("StringLookup reads a vocabulary file and adapts on a Dataset", "[preprocessing][strings]") {
  keras_test::TempDir dir("string_lookup");
  {
    std::ofstream f(dir / "vocab.txt");
    f << "a\nb\nc\nd\n";
  }
  layers::StringLookup from_file({.vocabulary_file = dir / "vocab.txt"});
  CHECK(values(from_file(kData)) == std::vector<float>{1, 3, 4, 4, 0, 2});
  // The Dataset rule: a batch of rank 2 is one document per row; the vocabulary is the array's.
  layers::StringLookup streamed;
  streamed.adapt(data::Dataset::from_tensor_slices(kData).batch(1));
  CHECK(streamed.get_vocabulary() == Strings{"[UNK]", "d", "z", "c", "b", "a"});
}

TEST_CASE("StringLookup's errors name the layer and the fix", "[preprocessing][strings]") {
  layers::StringLookup strict({.num_oov_indices = 0, .vocabulary = kVocab, .name = "strict"});
  CHECK_THROWS_AS(strict(kData), ValueError);
  CHECK_THROWS_WITH(strict(kData), Contains("strict") && Contains("'z'") && Contains("num_oov_indices"));
  CHECK_THROWS_AS(layers::StringLookup({.vocabulary_file = "/nonexistent/vocab.txt", .name = "from_file"}), IOError);
  CHECK_THROWS_WITH(layers::StringLookup({.vocabulary_file = "/nonexistent/vocab.txt", .name = "from_file"}),
                    Contains("from_file") && Contains("/nonexistent/vocab.txt"));
  CHECK_THROWS_WITH(layers::StringLookup({.vocabulary = Strings{"a", "b", "a"}}), Contains("repeated") && Contains("'a'"));
  CHECK_THROWS_WITH(layers::StringLookup({.vocabulary = kVocab, .output_mode = "tf_idf"}), Contains("idf_weights"));
  CHECK_THROWS_WITH(layers::StringLookup({.invert = true, .output_mode = "count"}), Contains("invert"));
  CHECK_THROWS_WITH(layers::StringLookup({.output_mode = "multi_hot", .name = "empty"})(kData), Contains("empty"));
  CHECK_THROWS_WITH(strict(Tensor::from_vector<std::int64_t>({1}, {1})), Contains("strict") && Contains("strings"));
  layers::StringLookup fixed({.vocabulary = kVocab});
  CHECK_THROWS_WITH(fixed.adapt(kData), Contains("static vocabulary"));
}

TEST_CASE("A string fed to a numeric layer is an error naming the layer", "[preprocessing][strings]") {
  layers::Dense dense(2, {.name = "numeric_dense"});
  CHECK_THROWS_AS(dense(kData), ValueError);
  CHECK_THROWS_WITH(dense(kData), Contains("numeric_dense") && Contains("string"));
  auto in = Input({3}, {.dtype = DType::string});
  CHECK_THROWS_WITH(layers::Dense(2, {.name = "symbolic_dense"})(in), Contains("symbolic_dense") && Contains("string"));
}

TEST_CASE("StringLookup keeps its vocabulary through its config, .h5 and .keras", "[preprocessing][strings]") {
  keras_test::TempDir dir("string_lookup_saving");
  auto lookup = std::make_shared<layers::StringLookup>(layers::StringLookupOptions{.output_mode = "multi_hot"});
  lookup->adapt(kData);
  const json config = lookup->get_config();
  CHECK(config["vocabulary"] == json(Strings{"d", "z", "c", "b", "a"}));
  CHECK(config["oov_token"] == "[UNK]");
  CHECK(config["encoding"] == "utf-8");
  auto copy = layers::StringLookup::from_config(config);
  CHECK(values((*copy)(kData)) == values((*lookup)(kData)));

  auto in = Input({3}, {.dtype = DType::string});
  Model model(in, layers::Dense(2)((*lookup)(in)));
  const auto want = model.predict(kData).to_vector<float>();
  for (const std::string file : {"s.h5", "s.keras"}) {
    model.save(dir / file);
    CHECK(models::load_model(dir / file)->predict(kData).to_vector<float>() == want);
  }
  // Keras 3 writes an adapted vocabulary to assets/<object path>/vocabulary.txt.
  saving::ZipReader zip(dir / "s.keras");
  REQUIRE(zip.has("assets/layers/string_lookup/vocabulary.txt"));
  CHECK(zip.read("assets/layers/string_lookup/vocabulary.txt") == "[UNK]\nd\nz\nc\nb\na");
}

TEST_CASE("A model maps indices back to strings: StringLookup(invert=true) as its output", "[preprocessing][strings]") {
  keras_test::TempDir dir("string_output");
  auto in = Input({3}, {.dtype = DType::int64});
  auto out = layers::StringLookup({.vocabulary = kVocab, .invert = true})(in);
  CHECK(out.dtype() == DType::string);
  Model model(in, out);
  const Tensor ids = Tensor::from_vector<std::int64_t>({1, 3, 4, 4, 0, 2}, {2, 3});
  const Tensor words = model.predict(ids);
  CHECK(words.dtype() == DType::string);
  CHECK(words.to_vector<std::string>() == Strings{"a", "c", "d", "d", "[UNK]", "b"});
  model.save(dir / "invert.keras");
  CHECK(models::load_model(dir / "invert.keras")->predict(ids).to_vector<std::string>() == words.to_vector<std::string>());
}

TEST_CASE("A Dataset of strings feeds fit, evaluate and predict of a string model", "[preprocessing][strings]") {
  utils::set_random_seed(2);
  auto lookup = std::make_shared<layers::StringLookup>(layers::StringLookupOptions{.vocabulary = kVocab,
                                                                                   .output_mode = "one_hot"});
  auto in = Input({1}, {.dtype = DType::string});
  Model model(in, layers::Dense(1, {.activation = "sigmoid"})((*lookup)(in)));
  model.compile({.optimizer = "adam", .loss = "binary_crossentropy", .metrics = {"accuracy"}});
  const Tensor x = strings({"a", "b", "c", "d", "a", "b", "c", "d"}, {8, 1});
  const Tensor y = Tensor::from_vector<float>({1, 0, 1, 0, 1, 0, 1, 0}, {8, 1});
  const auto ds = data::Dataset::from_tensor_slices(x, y).batch(4);
  CHECK(data::spec_str(ds.element_spec()).find("dtype=string") != std::string::npos);
  model.fit(ds, {.epochs = 2, .verbose = 0});
  const auto logs = model.evaluate(ds, {.verbose = 0});
  CHECK(logs.contains("accuracy"));
  // predict on the Dataset equals predict on the arrays, and the arrays' shuffled fit runs too.
  CHECK(model.predict(data::Dataset::from_tensor_slices(x).batch(3)).to_vector<float>() == model.predict(x).to_vector<float>());
  model.fit(x, y, {.batch_size = 3, .epochs = 1, .verbose = 0});
}

namespace {
// A user's lookup class of its own name: it takes strings because StringLookup does (a virtual), not
// because its class name is on a list.
class TicketLookup : public layers::StringLookup {
 public:
  using StringLookup::StringLookup;
  std::string class_name() const override { return "TicketLookup"; }
};
}  // namespace

TEST_CASE("a subclass of StringLookup under its own class name takes strings, in models too", "[preprocessing][strings]") {
  auto lookup = std::make_shared<TicketLookup>(layers::StringLookupOptions{.vocabulary = kVocab});
  CHECK(values((*lookup)(strings({"b", "z"}, {2}))) == std::vector<float>{2, 0});
  KerasTensor in = Input({1}, {.dtype = DType::string});
  KerasTensor out = (*lookup)(in);
  CHECK(out.dtype() == DType::int64);
  Model model(in, out);
  CHECK(values(model.predict(strings({"d", "a"}, {2, 1}))) == std::vector<float>{4, 1});
  // A numeric layer still refuses strings, naming itself.
  CHECK_THROWS_WITH(layers::Dense(2, {.name = "numbers_only"})(strings({"a"}, {1, 1})),
                    Contains("\"numbers_only\" (Dense) received input 0 of dtype string"));
}
