// Hashing on strings and HashedCrossing: Keras's docstring examples (FarmHash buckets of 'A'..'E', the mask '',
// the salt 133; HashedCrossing of ('A', 101) ... in int and one_hot), and their configs.
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
using Catch::Contains;
using Strings = std::vector<std::string>;

namespace {
Tensor strings(const Strings& v, const Shape& shape) { return Tensor::from_vector<std::string>(v, shape); }
std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
}  // namespace

TEST_CASE("Hashing hashes strings as Keras's docstring examples show", "[preprocessing][strings]") {
  const Tensor abcde = strings({"A", "B", "C", "D", "E"}, {5, 1});
  const Tensor out = layers::Hashing(3)(abcde);
  CHECK(out.dtype() == DType::int64);
  CHECK(out.shape() == Shape{5, 1});
  CHECK(values(out) == std::vector<float>{1, 0, 1, 1, 2});
  CHECK(values(layers::Hashing(3, {.mask_string = ""})(strings({"A", "B", "", "C", "D"}, {5, 1}))) ==
        std::vector<float>{1, 1, 0, 2, 2});
  CHECK(values(layers::Hashing(3, {.salt = std::vector<std::uint64_t>{133}})(abcde)) ==
        std::vector<float>{0, 0, 2, 1, 0});
  CHECK(values(layers::Hashing(3, {.output_mode = "count"})(strings({"A", "C", "D", "E"}, {1, 4}))) ==
        std::vector<float>{0, 3, 1});
  // A string mask_value reads back from Keras's config.
  const json config = layers::Hashing(3, {.mask_string = ""}).get_config();
  CHECK(config["mask_value"] == "");
  auto copy = layers::Hashing::from_config(config);
  CHECK(values((*copy)(strings({"A", ""}, {2}))) == std::vector<float>{1, 0});
}

TEST_CASE("HashedCrossing crosses features as Keras's docstring examples show", "[preprocessing][strings]") {
  const Tensor feat1 = strings({"A", "B", "A", "B", "A"}, {5});
  const Tensor feat2 = Tensor::from_vector<std::int64_t>({101, 101, 101, 102, 102}, {5});
  layers::HashedCrossing crossing(5);
  const auto out = crossing(std::vector<Tensor>{feat1, feat2});
  CHECK(out.dtype() == DType::int64);
  CHECK(out.shape() == Shape{5});
  CHECK(values(out) == std::vector<float>{1, 4, 1, 1, 3});
  layers::HashedCrossing one_hot(5, {.output_mode = "one_hot"});
  CHECK(values(one_hot(std::vector<Tensor>{feat1, feat2})) ==
        std::vector<float>{0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0});
  // [batch, 1] inputs give [batch, 1]; int32 crosses as int64.
  CHECK(values(crossing(std::vector<Tensor>{feat1.reshape({5, 1}), feat2.astype(DType::int32).reshape({5, 1})})) ==
        std::vector<float>{1, 4, 1, 1, 3});
  const json config = one_hot.get_config();
  CHECK(config["num_bins"] == 5);
  CHECK(config["output_mode"] == "one_hot");
  CHECK(values((*layers::HashedCrossing::from_config(config))(std::vector<Tensor>{feat1, feat2})) ==
        values(one_hot(std::vector<Tensor>{feat1, feat2})));
}

TEST_CASE("HashedCrossing's errors name the layer", "[preprocessing][strings]") {
  layers::HashedCrossing crossing(5, {.name = "cross"});
  const Tensor a = strings({"A", "B"}, {2});
  CHECK_THROWS_WITH(crossing(std::vector<Tensor>{a}), Contains("cross") && Contains("two inputs"));
  CHECK_THROWS_WITH(crossing(std::vector<Tensor>{a, strings({"x", "y", "z"}, {3})}), Contains("cross") && Contains("equal shape"));
  CHECK_THROWS_WITH(crossing(std::vector<Tensor>{a, Tensor::zeros({2})}), Contains("cross") && Contains("float32"));
  CHECK_THROWS_WITH(layers::HashedCrossing(5, {.output_mode = "count"}), Contains("output_mode"));
}

TEST_CASE("A model crosses string and integer inputs and saves the crossing", "[preprocessing][strings]") {
  keras_test::TempDir dir("hashed_crossing");
  auto city = Input({1}, {.name = "city", .dtype = DType::string});
  auto rooms = Input({1}, {.name = "rooms", .dtype = DType::int64});
  auto crossed = layers::HashedCrossing(16, {.output_mode = "one_hot"})({city, rooms});
  auto hashed = layers::Hashing(8, {.output_mode = "one_hot"})(city);
  Model model({city, rooms}, layers::Dense(1)(layers::Concatenate()({crossed, hashed})));
  const std::vector<Tensor> x{strings({"paris", "rome", "oslo"}, {3, 1}),
                              Tensor::from_vector<std::int64_t>({2, 3, 2}, {3, 1})};
  const auto want = model.predict(x).to_vector<float>();
  for (const std::string file : {"c.h5", "c.keras"}) {
    model.save(dir / file);
    CHECK(models::load_model(dir / file)->predict(x).to_vector<float>() == want);
  }
}
