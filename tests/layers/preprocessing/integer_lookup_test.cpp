// IntegerLookup: Keras's docstring examples (indices, adapt's order, several OOV indices by floormod and by
// FarmHash, encodings, tf_idf with and without the OOV weight, invert, mask), the mask with every output
// mode, num_oov_indices 0/1/2 with invert, adapt's idf, errors, and saving with its vocabulary (config, .h5,
// .keras with the assets/ vocabulary.txt Keras 3 writes and reads).
#include <cmath>
#include <fstream>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/zip_archive.hpp"
#include "temp_dir.hpp"

using namespace keras;

namespace {

Tensor ints(const std::vector<float>& v, const Shape& shape) { return Tensor::from_vector<float>(v, shape).astype(DType::int64); }
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
const std::vector<std::int64_t> kVocab = {12, 36, 1138, 42};

}  // namespace

TEST_CASE("IntegerLookup maps tokens to indices as Keras's docstring examples show", "[preprocessing]") {
  const Tensor data = ints({12, 1138, 42, 42, 1000, 36}, {2, 3});
  layers::IntegerLookup lookup({.vocabulary = kVocab});
  const Tensor out = lookup(data);
  CHECK(out.dtype() == DType::int64);
  CHECK(values(out) == std::vector<float>{1, 3, 4, 4, 0, 2});

  layers::IntegerLookup adapted;
  adapted.adapt(data);
  CHECK(adapted.get_vocabulary() == std::vector<std::int64_t>{-1, 42, 1138, 1000, 36, 12});
  CHECK(values(adapted(data)) == std::vector<float>{5, 2, 1, 1, 3, 4});
  // A Dataset gives the same vocabulary.
  layers::IntegerLookup streamed;
  streamed.adapt(data::Dataset::from_tensor_slices(data, Tensor::zeros({2})).batch(1));
  CHECK(streamed.get_vocabulary() == adapted.get_vocabulary());

  layers::IntegerLookup two_oov({.num_oov_indices = 2, .vocabulary = kVocab});
  CHECK(values(two_oov(ints({12, 1138, 42, 37, 1000, 36}, {2, 3}))) == std::vector<float>{2, 4, 5, 1, 0, 3});

  layers::IntegerLookup masked({.mask_token = 0, .vocabulary = kVocab});
  CHECK(values(masked(ints({12, 1138, 42, 42, 1000, 36, 0, 0, 0}, {3, 3}))) ==
        std::vector<float>{2, 4, 5, 5, 1, 3, 0, 0, 0});
}

TEST_CASE("IntegerLookup encodes one_hot, multi_hot and count, and inverts", "[preprocessing]") {
  layers::IntegerLookup one_hot({.vocabulary = kVocab, .output_mode = "one_hot"});
  CHECK(values(one_hot(ints({12, 36, 1138, 42, 7}, {5}))) ==
        std::vector<float>{0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0});
  const Tensor data = ints({12, 1138, 42, 42, 42, 7, 36, 7}, {2, 4});
  CHECK(values(layers::IntegerLookup({.vocabulary = kVocab, .output_mode = "multi_hot"})(data)) ==
        std::vector<float>{0, 1, 0, 1, 1, 1, 0, 1, 0, 1});
  CHECK(values(layers::IntegerLookup({.vocabulary = kVocab, .output_mode = "count"})(data)) ==
        std::vector<float>{0, 1, 0, 1, 2, 2, 0, 1, 0, 1});
  CHECK(values(layers::IntegerLookup({.max_tokens = 8, .vocabulary = kVocab, .output_mode = "count",
                                      .pad_to_max_tokens = true})(data))
            .size() == 16u);
  layers::IntegerLookup invert({.vocabulary = kVocab, .invert = true});
  CHECK(values(invert(ints({1, 3, 4, 4, 0, 2}, {2, 3}))) == std::vector<float>{12, 1138, 42, 42, -1, 36});
}

TEST_CASE("IntegerLookup's errors name the layer and the fix", "[preprocessing]") {
  layers::IntegerLookup strict({.num_oov_indices = 0, .vocabulary = kVocab});
  CHECK_THROWS_WITH(strict(ints({12, 7}, {2})), Catch::Contains("IntegerLookup") && Catch::Contains("OOV value '7'"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary = std::vector<std::int64_t>{1, 2, 1}}), Catch::Contains("repeated"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.output_mode = "tf_idf_x"}), Catch::Contains("output_mode"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary = kVocab, .output_mode = "tf_idf"}), Catch::Contains("idf_weights"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.salt = std::vector<std::uint64_t>{1}}), Catch::Contains("farmhash"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary_dtype = "int32"}), Catch::Contains("int64"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.max_tokens = 3, .vocabulary = kVocab}), Catch::Contains("max_tokens"));
  // max_tokens caps what adapt() learns.
  layers::IntegerLookup capped({.max_tokens = 3});
  capped.adapt(ints({5, 5, 5, 6, 6, 7}, {6}));
  CHECK(capped.get_vocabulary() == std::vector<std::int64_t>{-1, 5, 6});
}

TEST_CASE("IntegerLookup keeps its vocabulary through its config, .h5 and .keras", "[preprocessing]") {
  keras_test::TempDir dir("integer_lookup");
  auto lookup = std::make_shared<layers::IntegerLookup>(layers::IntegerLookupOptions{.output_mode = "multi_hot"});
  lookup->adapt(ints({3, 3, 9, 4, 4, 4, 8}, {7}));
  const json config = lookup->get_config();
  CHECK(config["vocabulary"] == json::array({4, 3, 9, 8}));
  CHECK(config["num_oov_indices"] == 1);
  CHECK(config["mask_token"].is_null());
  Sequential model({layers::Input({3}), lookup, layers::Dense(2)});
  const Tensor x = ints({3, 9, 100, 4, 4, 8}, {2, 3});
  const auto want = model.predict(x).to_vector<float>();
  for (const std::string file : {"l.h5", "l.keras"}) {
    model.save(dir / file);
    CHECK(models::load_model(dir / file)->predict(x).to_vector<float>() == want);
  }
}

TEST_CASE("IntegerLookup's tf_idf and FarmHash OOV buckets reproduce Keras's docstring", "[preprocessing]") {
  const Tensor data = ints({12, 1138, 42, 42, 42, 7, 36, 7}, {2, 4});
  // The OOV slot takes the mean idf weight (0.5) unless the vocabulary gives the OOV token's.
  layers::IntegerLookup tf_idf({.vocabulary = kVocab, .idf_weights = std::vector<float>{0.25f, 0.75f, 0.6f, 0.4f},
                                .output_mode = "tf_idf"});
  const auto got = values(tf_idf(data));
  const std::vector<float> want = {0, 0.25f, 0, 0.6f, 0.8f, 1.0f, 0, 0.75f, 0, 0.4f};
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]));
  layers::IntegerLookup with_oov({.vocabulary = std::vector<std::int64_t>{-1, 12, 36, 1138, 42},
                                  .idf_weights = std::vector<float>{0.9f, 0.25f, 0.75f, 0.6f, 0.4f},
                                  .output_mode = "tf_idf"});
  const auto got2 = values(with_oov(data));
  const std::vector<float> want2 = {0, 0.25f, 0, 0.6f, 0.8f, 1.8f, 0, 0.75f, 0, 0.4f};
  for (std::size_t i = 0; i < want2.size(); ++i) CHECK(got2[i] == Approx(want2[i]));

  const std::vector<std::int64_t> tens = {10, 20, 30};
  const Tensor oov = ints({100, 300, 700, 1100, 1700, 2000}, {6});
  CHECK(values(layers::IntegerLookup({.num_oov_indices = 4, .vocabulary = tens})(oov)) ==
        std::vector<float>{0, 0, 0, 0, 0, 0});
  CHECK(values(layers::IntegerLookup({.num_oov_indices = 4, .vocabulary = tens, .oov_method = "farmhash"})(oov)) ==
        std::vector<float>{3, 3, 2, 2, 0, 1});
}

TEST_CASE("IntegerLookup's mask token with every output mode follows Keras's index layout", "[preprocessing]") {
  // int: [mask, OOV, vocabulary]; other modes: the mask is dropped and the OOV index comes first.
  layers::IntegerLookup int_mode({.mask_token = 0, .vocabulary = kVocab});
  CHECK(int_mode.get_vocabulary() == std::vector<std::int64_t>{0, -1, 12, 36, 1138, 42});
  const Tensor row = ints({12, 0, 0, 7, 42, 42}, {1, 6});
  CHECK(values(int_mode(row)) == std::vector<float>{2, 0, 0, 1, 5, 5});
  layers::IntegerLookup multi({.mask_token = 0, .vocabulary = kVocab, .output_mode = "multi_hot"});
  CHECK(multi.get_vocabulary() == std::vector<std::int64_t>{-1, 12, 36, 1138, 42});
  CHECK(values(multi(row)) == std::vector<float>{1, 1, 0, 0, 1});
  CHECK(values(layers::IntegerLookup({.mask_token = 0, .vocabulary = kVocab, .output_mode = "count"})(row)) ==
        std::vector<float>{1, 1, 0, 0, 2});
  CHECK(values(layers::IntegerLookup({.mask_token = 0, .vocabulary = kVocab, .output_mode = "one_hot"})(
            ints({36, 0, 7}, {3}))) == std::vector<float>{0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
  layers::IntegerLookup idf({.mask_token = 0, .vocabulary = kVocab,
                             .idf_weights = std::vector<float>{1, 2, 3, 4}, .output_mode = "tf_idf"});
  CHECK(values(idf(row)) == std::vector<float>{2.5f, 1, 0, 0, 8});
  // A vocabulary given with the mask in front (int mode's get_vocabulary) is taken without it.
  CHECK(layers::IntegerLookup({.mask_token = 0, .vocabulary = int_mode.get_vocabulary()}).get_vocabulary() ==
        int_mode.get_vocabulary());
  // adapt() leaves the mask and OOV tokens out of what it learns.
  layers::IntegerLookup adapted({.mask_token = 0, .output_mode = "count"});
  adapted.adapt(ints({0, 0, 0, 5, 5, -1, -1, -1, 6}, {9}));
  CHECK(adapted.get_vocabulary() == std::vector<std::int64_t>{-1, 5, 6});
}

TEST_CASE("IntegerLookup inverts with 0, 1 and 2 OOV indices and a mask", "[preprocessing]") {
  const Tensor data = ints({12, 1138, 42, 7}, {4});
  for (const std::int64_t n : {0, 1, 2}) {
    layers::IntegerLookup forward({.num_oov_indices = n, .vocabulary = kVocab});
    layers::IntegerLookup inverse({.num_oov_indices = n, .vocabulary = forward.get_vocabulary(), .invert = true});
    CHECK(inverse.get_vocabulary() == forward.get_vocabulary());
    const Tensor known = ints({12, 1138, 42}, {3});
    CHECK(values(inverse(forward(known))) == std::vector<float>{12, 1138, 42});
    if (n == 0) {
      CHECK_THROWS_WITH(forward(data), Catch::Contains("OOV value '7'"));
    } else {
      const Tensor back = inverse(forward(data));
      CHECK(back.dtype() == DType::int64);
      CHECK(values(back) == std::vector<float>{12, 1138, 42, -1});
    }
  }
  layers::IntegerLookup masked({.num_oov_indices = 2, .mask_token = 0, .oov_token = -7, .vocabulary = kVocab,
                                .invert = true});
  CHECK(values(masked(ints({0, 1, 2, 3, 6, 99}, {6}))) == std::vector<float>{0, -7, -7, 12, 42, -7});
}

TEST_CASE("IntegerLookup learns idf weights as Keras's formula, one document a row", "[preprocessing]") {
  // Rows are documents. Counts: 5 four times, 6 and 8 twice (the larger first), 7 once; documents: 5 in all
  // 3, 8 in 1, 6 in 2, 7 in 1. idf = log(1 + N / (1 + df)); the OOV slot takes the mean.
  const Tensor docs = ints({5, 6, 7, 5, 5, 6, 5, 8, 8}, {3, 3});
  layers::IntegerLookup lookup({.output_mode = "tf_idf"});
  lookup.adapt(docs);
  CHECK(lookup.get_vocabulary() == std::vector<std::int64_t>{-1, 5, 8, 6, 7});
  const std::vector<double> df = {3, 1, 2, 1};
  std::vector<double> idf;
  for (const double d : df) idf.push_back(std::log(1.0 + 3.0 / (1.0 + d)));
  const double mean = (idf[0] + idf[1] + idf[2] + idf[3]) / 4;
  const auto got = values(lookup(ints({5, 5, 9, 7}, {1, 4})));
  CHECK(got[0] == Approx(mean));
  CHECK(got[1] == Approx(2 * idf[0]));
  CHECK(got[2] == 0.f);
  CHECK(got[4] == Approx(idf[3]));
  // The Dataset rule: a batch of rank 2 is one document a row, so streaming gives the same weights.
  layers::IntegerLookup streamed({.output_mode = "tf_idf"});
  streamed.adapt(data::Dataset::from_tensor_slices(docs).batch(2));
  CHECK(streamed.idf_weights() == lookup.idf_weights());
}

TEST_CASE("IntegerLookup reads a vocabulary file - a missing one is an IOError naming the layer", "[preprocessing]") {
  keras_test::TempDir dir("integer_lookup_file");
  {
    std::ofstream f(dir / "vocab.txt");
    f << "12\n36\n1138\n42\n";
  }
  layers::IntegerLookup from_file({.vocabulary_file = dir / "vocab.txt"});
  CHECK(values(from_file(ints({12, 1138, 42, 42, 1000, 36}, {2, 3}))) == std::vector<float>{1, 3, 4, 4, 0, 2});
  CHECK_THROWS_AS(layers::IntegerLookup({.vocabulary_file = dir / "none.txt", .name = "ids"}), IOError);
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary_file = dir / "none.txt", .name = "ids"}),
                    Catch::Contains("IntegerLookup 'ids'") && Catch::Contains("none.txt"));
  {
    std::ofstream f(dir / "bad.txt");
    f << "12\nabc\n";
  }
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary_file = dir / "bad.txt"}), Catch::Contains("'abc'"));
  // Keras's config names the file as `vocabulary`.
  json config = from_file.get_config();
  config["vocabulary"] = (dir / "vocab.txt");
  CHECK(values((*layers::IntegerLookup::from_config(config))(ints({36}, {1}))) == std::vector<float>{2});
  // Strings are not integer tokens.
  CHECK_THROWS_WITH(from_file(Tensor::from_vector<std::string>({"12"}, {1})),
                    Catch::Contains(from_file.name()) && Catch::Contains("StringLookup"));
}

namespace {
// Sets `vocabulary` (and idf_weights) to null in every lookup config under `j`, as Keras 3 writes an adapted layer.
void drop_vocabularies(json& j) {
  if (j.is_object()) {
    const std::string c = j.value("class_name", "");
    if (c == "IntegerLookup" || c == "StringLookup" || c == "TextVectorization")
      j["config"]["vocabulary"] = j["config"]["idf_weights"] = nullptr;
    for (auto& [k, v] : j.items()) drop_vocabularies(v);
  } else if (j.is_array()) {
    for (auto& v : j) drop_vocabularies(v);
  }
}
// Copies the archive `zip` to `path` with the lookups' configs as Keras 3 writes them (no vocabulary).
void as_keras3(const saving::ZipReader& zip, const std::string& path) {
  saving::ZipWriter out(path);
  for (const auto& name : zip.names()) {
    if (name != "config.json") {
      out.add(name, zip.read(name));
      continue;
    }
    json config = json::parse(zip.read(name));
    drop_vocabularies(config);
    out.add(name, config.dump());
  }
  out.commit();
}
}  // namespace

TEST_CASE("IntegerLookup's adapted vocabulary and idf weights go to Keras 3's .keras assets and back", "[preprocessing]") {
  keras_test::TempDir dir("integer_lookup_assets");
  auto lookup = std::make_shared<layers::IntegerLookup>(layers::IntegerLookupOptions{.output_mode = "tf_idf"});
  lookup->adapt(ints({3, 3, 9, 4, 4, 4, 8, 3, 4}, {3, 3}));
  Sequential model({layers::Input({3}), lookup, layers::Dense(2)});
  const Tensor x = ints({3, 9, 100, 4, 4, 8}, {2, 3});
  const auto want = model.predict(x).to_vector<float>();
  model.save(dir / "a.keras");
  saving::ZipReader zip(dir / "a.keras");
  REQUIRE(zip.has("assets/layers/integer_lookup/vocabulary.txt"));
  CHECK(zip.read("assets/layers/integer_lookup/vocabulary.txt") == "-1\n4\n3\n9\n8");
  // An archive as Keras 3 writes it: no vocabulary in the config, only the asset and the idf variable.
  as_keras3(zip, dir / "keras3.keras");
  auto loaded = models::load_model(dir / "keras3.keras");
  CHECK(loaded->predict(x).to_vector<float>() == want);
  CHECK(models::load_model(dir / "a.keras")->predict(x).to_vector<float>() == want);
}

TEST_CASE("StringLookup and TextVectorization load from a Keras 3 archive whose config has no vocabulary", "[preprocessing]") {
  keras_test::TempDir dir("string_lookup_keras3");
  const Tensor words = Tensor::from_vector<std::string>({"a b", "b c c", "d a", "c"}, {4, 1});
  auto text = std::make_shared<layers::TextVectorization>(layers::TextVectorizationOptions{.output_mode = "tf_idf"});
  text->adapt(words);
  auto in = Input({1}, {.dtype = DType::string});
  Model model(in, layers::Dense(2)((*text)(in)));
  const auto want = model.predict(words).to_vector<float>();
  model.save(dir / "t.keras");
  saving::ZipReader zip(dir / "t.keras");
  as_keras3(zip, dir / "keras3.keras");
  CHECK(models::load_model(dir / "keras3.keras")->predict(words).to_vector<float>() == want);
}
