// Hashing and the hashes behind it: Keras's docstring examples (FarmHash Fingerprint64, with a mask, with
// a salt through SipHash-2-4), SipHash's published test vector, and the layer on integer tokens.
#include <string>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace pp = keras::layers::preprocessing;

namespace {
std::vector<std::int64_t> buckets(const std::vector<std::string>& tokens, std::int64_t bins,
                                  std::optional<std::array<std::uint64_t, 2>> salt = std::nullopt) {
  std::vector<std::int64_t> out;
  for (const auto& t : tokens) out.push_back(pp::hash_bucket(t, bins, salt));
  return out;
}
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
}  // namespace

TEST_CASE("The hashes are TensorFlow's: Keras's Hashing docstring examples and SipHash's test vector", "[preprocessing]") {
  // Hashing(num_bins=3) on [['A'], ['B'], ['C'], ['D'], ['E']] gives [[1], [0], [1], [1], [2]].
  CHECK(buckets({"A", "B", "C", "D", "E"}, 3) == std::vector<std::int64_t>{1, 0, 1, 1, 2});
  // Hashing(num_bins=3, mask_value='') on A, B, '', C, D gives 1, 1, 0, 2, 2: 1 + hash mod 2 off the mask.
  const auto masked = buckets({"A", "B", "C", "D"}, 2);
  CHECK(std::vector<std::int64_t>{masked[0] + 1, masked[1] + 1, masked[2] + 1, masked[3] + 1} ==
        std::vector<std::int64_t>{1, 1, 2, 2});
  // Hashing(num_bins=3, salt=133) gives [[0], [0], [2], [1], [0]].
  CHECK(buckets({"A", "B", "C", "D", "E"}, 3, std::array<std::uint64_t, 2>{133, 133}) ==
        std::vector<std::int64_t>{0, 0, 2, 1, 0});
  // SipHash-2-4's reference: key 00..0f, message 00..0e.
  std::string message;
  for (int i = 0; i < 15; ++i) message.push_back(char(i));
  CHECK(pp::siphash24(message, {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL}) == 0xa129ca6149be45e5ULL);
}

TEST_CASE("Hashing hashes integer tokens by their decimal text, with mask_value, salt and encodings", "[preprocessing]") {
  const Tensor tokens = Tensor::from_vector<float>({7, -3, 1000, 0, 7, 42}, {3, 2}).astype(DType::int64);
  const std::vector<std::string> text = {"7", "-3", "1000", "0", "7", "42"};
  layers::Hashing plain(5);
  const Tensor out = plain(tokens);
  CHECK(out.dtype() == DType::int64);
  CHECK(out.shape() == Shape{3, 2});
  std::vector<float> want;
  for (auto b : buckets(text, 5)) want.push_back(float(b));
  CHECK(values(out) == want);

  layers::Hashing masked(5, {.mask_value = 0});
  want.clear();
  for (std::size_t i = 0; i < text.size(); ++i) want.push_back(text[i] == "0" ? 0.f : float(pp::hash_bucket(text[i], 4) + 1));
  CHECK(values(masked(tokens)) == want);

  layers::Hashing salted(5, {.salt = std::vector<std::uint64_t>{133}});
  want.clear();
  for (auto b : buckets(text, 5, std::array<std::uint64_t, 2>{133, 133})) want.push_back(float(b));
  CHECK(values(salted(tokens)) == want);
  CHECK(salted.get_config()["salt"] == json::array({133, 133}));

  const auto counts = values(layers::Hashing(5, {.output_mode = "count"})(tokens));
  REQUIRE(counts.size() == 15u);
  float total = 0;
  for (float c : counts) total += c;
  CHECK(total == 6.f);  // two tokens per row, counted once each
  CHECK_THROWS_WITH(plain(Tensor::ones({2})), Catch::Contains("Hashing") && Catch::Contains("float32"));
  CHECK_THROWS_WITH(layers::Hashing(0), Catch::Contains("num_bins"));
}

TEST_CASE("Hashing reads Keras's config (a salt as one number) and survives .h5 and .keras", "[preprocessing]") {
  const json keras_config = json::parse(
      R"({"name": "hashing", "trainable": true, "dtype": "float32", "num_bins": 4, "mask_value": null,
          "salt": 7, "output_mode": "int", "sparse": false})");
  const auto layer = Layer::deserialize(serialize_object("Hashing", keras_config));
  CHECK(layer->get_config()["salt"] == json::array({7, 7}));
  keras_test::TempDir dir("hashing");
  Sequential model({layers::Input({3}), layers::Hashing(6, {.output_mode = "multi_hot"}), layers::Dense(2)});
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).astype(DType::int64);
  const auto want = model.predict(x).to_vector<float>();
  for (const std::string file : {"h.h5", "h.keras"}) {
    model.save(dir / file);
    CHECK(models::load_model(dir / file)->predict(x).to_vector<float>() == want);
  }
}
