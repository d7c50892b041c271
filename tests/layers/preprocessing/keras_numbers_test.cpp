// The "numbers that must hold" across the numeric, categorical and text preprocessing layers
// (the image layers have theirs in image_saving_test.cpp): each layer, configured away from its defaults and
// adapted where Keras adapts, survives a config round trip (same config, same outputs) and a model holding it
// predicts the same after .h5 and .keras; CategoryEncoding, which TF.js has, also after TF.js. The lookups'
// adapt() equals NumPy's ordering and idf (tests/golden/make_lookup_adapt_golden.py).
#include <fstream>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/tfjs.hpp"
#include "temp_dir.hpp"

using namespace keras;
using Strings = std::vector<std::string>;

namespace {

Tensor strings(const Strings& v, const Shape& shape) { return Tensor::from_vector<std::string>(v, shape); }
Tensor int64s(const std::vector<std::int64_t>& v, const Shape& shape) { return Tensor::from_vector<std::int64_t>(v, shape); }
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }

struct Case {
  LayerPtr layer;
  Tensor x;  // the layer's input (one tensor)
};

// Every single-input non-image preprocessing layer of the issue, away from its defaults.
std::vector<Case> every_layer() {
  std::vector<Case> cases;
  const Tensor numbers = Tensor::from_vector<float>({0.5f, -1.f, 2.f, 3.5f, 7.f, 1.f, -2.f, 0.f}, {4, 2});
  auto norm = std::make_shared<layers::Normalization>();
  norm->adapt(numbers);
  cases.push_back({norm, numbers});
  auto inverse = std::make_shared<layers::Normalization>(layers::NormalizationOptions{.mean = std::vector<double>{1, 2},
                                                                                     .variance = std::vector<double>{4, 9},
                                                                                     .invert = true});
  cases.push_back({inverse, numbers});
  auto disc = std::make_shared<layers::Discretization>(layers::DiscretizationOptions{.num_bins = 3, .output_mode = "count"});
  disc->adapt(numbers);
  cases.push_back({disc, numbers});
  const Tensor ids = int64s({0, 3, 3, 1, 2, 2, 0, 4}, {4, 2});
  cases.push_back({std::make_shared<layers::CategoryEncoding>(5, layers::CategoryEncodingOptions{.output_mode = "count"}), ids});
  cases.push_back({std::make_shared<layers::Hashing>(7, layers::HashingOptions{.mask_value = 0, .salt = std::vector<std::uint64_t>{5},
                                                                                .output_mode = "multi_hot"}),
                   ids});
  const Tensor words = strings({"cat", "dog", "", "cat", "emu", "fox", "dog", "cat"}, {4, 2});
  cases.push_back({std::make_shared<layers::Hashing>(9, layers::HashingOptions{.mask_string = ""}), words});
  auto slookup = std::make_shared<layers::StringLookup>(
      layers::StringLookupOptions{.max_tokens = 5, .num_oov_indices = 2, .mask_token = "", .output_mode = "tf_idf"});
  slookup->adapt(words);
  cases.push_back({slookup, words});
  auto ilookup = std::make_shared<layers::IntegerLookup>(
      layers::IntegerLookupOptions{.num_oov_indices = 2, .mask_token = 0, .output_mode = "count"});
  ilookup->adapt(ids);
  cases.push_back({ilookup, ids});
  auto text = std::make_shared<layers::TextVectorization>(
      layers::TextVectorizationOptions{.max_tokens = 12, .ngrams = std::vector<std::int64_t>{1, 2},
                                       .output_mode = "tf_idf"});
  const Tensor sentences = strings({"The cat sat.", "A dog, a cat!", "the DOG ran", "cats and dogs"}, {4});
  text->adapt(sentences);
  cases.push_back({text, sentences});
  auto seq = std::make_shared<layers::TextVectorization>(layers::TextVectorizationOptions{.output_sequence_length = 5});
  seq->adapt(sentences);
  cases.push_back({seq, sentences});
  return cases;
}

}  // namespace

TEST_CASE("Every preprocessing layer survives a config round trip with the same outputs", "[preprocessing][numbers]") {
  for (const auto& [layer, x] : every_layer()) {
    INFO(layer->class_name() << " " << layer->get_config().dump());
    const json config = layer->get_config();
    const auto again = Layer::deserialize(serialize_object(layer->class_name(), config));
    CHECK(again->class_name() == layer->class_name());
    CHECK(again->get_config() == config);
    // Adapted statistics live in weights (Normalization's mean and variance), as in Keras: copy them.
    const Tensor want = (*layer)(x);
    (void)(*again)(x);
    again->set_weights(layer->get_weights());
    const Tensor got = (*again)(x);
    REQUIRE(got.dtype() == want.dtype());
    CHECK(values(got) == values(want));
  }
}

TEST_CASE("A model around each preprocessing layer predicts the same after .h5 and .keras", "[preprocessing][numbers]") {
  keras_test::TempDir dir("preprocessing_numbers");
  int k = 0;
  for (const auto& [layer, x] : every_layer()) {
    INFO(layer->class_name());
    Shape shape(x.shape().begin() + 1, x.shape().end());
    auto in = Input(shape, {.dtype = x.dtype()});
    Model model(in, (*layer)(in));
    const Tensor want = model.predict(x);
    for (const std::string ext : {".h5", ".keras"}) {
      INFO(ext);
      const std::string file = dir / ("m" + std::to_string(k++) + ext);
      model.save(file);
      const Tensor got = models::load_model(file)->predict(x);
      CHECK(values(got) == values(want));
    }
  }
}

TEST_CASE("CategoryEncoding goes through TF.js, which has the layer", "[preprocessing][numbers]") {
  keras_test::TempDir dir("category_encoding_tfjs");
  Sequential model({layers::Input({3}), layers::CategoryEncoding(6, {.output_mode = "count"}), layers::Dense(2)});
  const Tensor x = Tensor::from_vector<float>({0, 5, 5, 1, 2, 3}, {2, 3});
  export_tfjs(model, dir / "web");
  const json topology = json::parse(std::ifstream(dir / "web/model.json"));
  CHECK(topology.dump().find("CategoryEncoding") != std::string::npos);
  CHECK(models::load_tfjs(dir / "web")->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
}

TEST_CASE("IntegerLookup and StringLookup adapt() equal NumPy's order and idf", "[preprocessing][numbers]") {
  const json g = keras::testing::load_golden("lookup_adapt.json");
  const auto rows = g["ints"]["data"].get<std::vector<std::vector<std::int64_t>>>();
  std::vector<std::int64_t> flat;
  for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
  layers::IntegerLookup ints({.output_mode = "tf_idf"});
  ints.adapt(int64s(flat, {std::int64_t(rows.size()), std::int64_t(rows[0].size())}));
  const auto want_ints = g["ints"]["vocabulary"].get<std::vector<std::int64_t>>();
  CHECK(ints.get_vocabulary(false) == want_ints);
  const auto idf = g["ints"]["idf"].get<std::vector<double>>();
  REQUIRE(ints.idf_weights().size() == idf.size() + 1);  // the OOV slot in front
  for (std::size_t i = 0; i < idf.size(); ++i) CHECK(ints.idf_weights()[i + 1] == Approx(idf[i]).epsilon(1e-6));

  const auto srows = g["strings"]["data"].get<std::vector<Strings>>();
  Strings sflat;
  for (const auto& r : srows) sflat.insert(sflat.end(), r.begin(), r.end());
  layers::StringLookup words({.output_mode = "tf_idf"});
  words.adapt(strings(sflat, {std::int64_t(srows.size()), std::int64_t(srows[0].size())}));
  CHECK(words.get_vocabulary(false) == g["strings"]["vocabulary"].get<Strings>());
  const auto sidf = g["strings"]["idf"].get<std::vector<double>>();
  REQUIRE(words.idf_weights().size() == sidf.size() + 1);
  for (std::size_t i = 0; i < sidf.size(); ++i) CHECK(words.idf_weights()[i + 1] == Approx(sidf[i]).epsilon(1e-6));
}

TEST_CASE("Bad input to the preprocessing layers is a keras error naming the layer", "[preprocessing][numbers]") {
  using Catch::Contains;
  const Tensor words = strings({"a", "b"}, {2, 1});
  // A string fed to a numeric layer, called eagerly and in a model.
  std::vector<LayerPtr> numeric = {
      std::make_shared<layers::Normalization>(layers::NormalizationOptions{.mean = std::vector<double>{0},
                                                                           .variance = std::vector<double>{1},
                                                                           .name = "num_norm"}),
      std::make_shared<layers::Discretization>(layers::DiscretizationOptions{.bin_boundaries = std::vector<double>{0},
                                                                             .name = "num_disc"}),
      std::make_shared<layers::CategoryEncoding>(3, layers::CategoryEncodingOptions{.name = "num_cat"}),
      std::make_shared<layers::IntegerLookup>(layers::IntegerLookupOptions{.vocabulary = std::vector<std::int64_t>{1},
                                                                           .name = "num_ids"}),
      std::make_shared<layers::Rescaling>(0.5, layers::RescalingOptions{.name = "num_rescale"})};
  for (const auto& layer : numeric) {
    INFO(layer->name());
    CHECK_THROWS_AS((*layer)(words), ValueError);
    CHECK_THROWS_WITH((*layer)(words), Contains(layer->name()) && Contains("string"));
    auto in = Input({1}, {.dtype = DType::string});
    CHECK_THROWS_WITH((*layer)(in), Contains(layer->name()));
  }
  // An unknown token with num_oov_indices=0.
  layers::StringLookup strict_words({.num_oov_indices = 0, .vocabulary = Strings{"a"}, .name = "strict_words"});
  CHECK_THROWS_WITH(strict_words(words), Contains("strict_words") && Contains("'b'"));
  layers::IntegerLookup strict_ids({.num_oov_indices = 0, .vocabulary = std::vector<std::int64_t>{1}, .name = "strict_ids"});
  CHECK_THROWS_AS(strict_ids(int64s({1, 2}, {2})), ValueError);
  CHECK_THROWS_WITH(strict_ids(int64s({1, 2}, {2})), Contains("strict_ids") && Contains("'2'"));
  // A vocabulary file that does not exist.
  CHECK_THROWS_AS(layers::StringLookup({.vocabulary_file = "/nonexistent/v.txt", .name = "file_words"}), IOError);
  CHECK_THROWS_WITH(layers::StringLookup({.vocabulary_file = "/nonexistent/v.txt", .name = "file_words"}),
                    Contains("file_words") && Contains("/nonexistent/v.txt"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary_file = "/nonexistent/v.txt", .name = "file_ids"}),
                    Contains("file_ids") && Contains("/nonexistent/v.txt"));
  CHECK_THROWS_AS(layers::TextVectorization({.vocabulary_file = "/nonexistent/v.txt", .name = "file_text"}), IOError);
  CHECK_THROWS_WITH(layers::TextVectorization({.vocabulary_file = "/nonexistent/v.txt", .name = "file_text"}),
                    Contains("file_text") && Contains("/nonexistent/v.txt"));
}
