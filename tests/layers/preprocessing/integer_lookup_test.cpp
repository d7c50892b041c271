// IntegerLookup: Keras's docstring examples (indices, adapt's order, several OOV indices, encodings,
// invert, mask), errors, and saving with its vocabulary.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
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
  CHECK_THROWS_WITH(strict(ints({12, 7}, {2})), Catch::Contains("IntegerLookup") && Catch::Contains("OOV value 7"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.vocabulary = std::vector<std::int64_t>{1, 2, 1}}), Catch::Contains("twice"));
  CHECK_THROWS_WITH(layers::IntegerLookup({.output_mode = "tf_idf"}), Catch::Contains("output_mode"));
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
