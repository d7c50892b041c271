// Normalization, Discretization and CategoryEncoding: Keras's docstring examples, NumPy references
// (tests/golden/make_preprocessing_numeric_golden.py), adapt() on arrays and Datasets, and saving.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::golden_tensor;

namespace {

const json& golden() {
  static const json g = keras::testing::load_golden("preprocessing_numeric.json");
  return g;
}

std::vector<float> values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }

}  // namespace

TEST_CASE("Normalization reproduces Keras's docstring examples", "[preprocessing]") {
  layers::Normalization scalar({.axis = std::nullopt});
  scalar.adapt(Tensor::from_vector<float>({1, 2, 3, 4, 5}));
  check_close(scalar(Tensor::from_vector<float>({1, 2, 3})), {3}, {-1.4142135, -0.70710677, 0.0});

  layers::Normalization last;
  last.adapt(Tensor::from_vector<float>({0, 7, 4, 2, 9, 6, 0, 7, 4, 2, 9, 6}, {4, 3}));
  check_close(last(Tensor::from_vector<float>({0, 7, 4}, {1, 3})), {1, 3}, {-1, -1, -1});

  layers::Normalization given({.mean = std::vector<double>{3.0}, .variance = std::vector<double>{2.0}});
  check_close(given(Tensor::from_vector<float>({1, 2, 3}, {3, 1})), {3, 1}, {-1.4142135, -0.70710677, 0.0});
}

TEST_CASE("Normalization's adapt() equals NumPy's mean and variance for each axis, on arrays and Datasets", "[preprocessing]") {
  const Tensor data = golden_tensor(golden()["data"]), x = golden_tensor(golden()["x"]);
  for (const auto& c : golden()["normalization"]) {
    INFO("axis " << c["axis"].dump());
    std::optional<std::vector<int>> axis;
    if (!c["axis"].is_null()) axis = c["axis"].get<std::vector<int>>();
    layers::Normalization norm({.axis = axis});
    norm.adapt(data);
    const auto weights = norm.weights();
    REQUIRE(weights.size() == 3);
    check_close(weights[0]->value(), c["mean"]);
    check_close(weights[1]->value(), c["variance"]);
    CHECK(weights[2]->value().to_vector<float>()[0] == Approx(double(data.size()) / double(weights[0]->value().size())));
    check_close(norm(x), c["output"]);
    // invert undoes it.
    layers::Normalization inverse({.axis = axis, .invert = true});
    inverse.adapt(data);
    const auto back = values(inverse(norm(x)));
    const auto orig = values(x);
    for (std::size_t i = 0; i < orig.size(); ++i) CHECK(back[i] == Approx(orig[i]).margin(1e-4));
    // A Dataset of batches gives the same statistics.
    layers::Normalization streamed({.axis = axis});
    streamed.adapt(data::Dataset::from_tensor_slices(data, Tensor::zeros({40})).batch(7));
    check_close(streamed.weights()[0]->value(), c["mean"]);
    check_close(streamed.weights()[1]->value(), c["variance"]);
  }
}

TEST_CASE("Normalization saves its adapted statistics in .h5 and .keras, and given ones in its config", "[preprocessing]") {
  keras_test::TempDir dir("preprocessing_numeric");
  const Tensor data = golden_tensor(golden()["data"]), x = golden_tensor(golden()["x"]);
  auto norm = std::make_shared<layers::Normalization>(layers::NormalizationOptions{.axis = std::vector<int>{1, 2}});
  norm->adapt(data);
  Sequential model({layers::Input({5, 3}), norm, layers::Flatten(), layers::Dense(2)});
  const auto want = model.predict(x).to_vector<float>();
  for (const std::string file : {"n.h5", "n.keras"}) {
    model.save(dir / file);
    auto loaded = models::load_model(dir / file);
    CHECK(loaded->predict(x).to_vector<float>() == want);
    CHECK(loaded->layers()[0]->weights()[0]->name().find("mean") != std::string::npos);
  }
  const json config = layers::Normalization({.mean = std::vector<double>{1, 2, 3},
                                             .variance = std::vector<double>{4, 5, 6}, .invert = true})
                          .get_config();
  CHECK(config["axis"] == json::array({-1}));
  CHECK(config["mean"] == json::array({1.0, 2.0, 3.0}));
  // Keras writes a scalar mean as a number and nested lists for several kept axes.
  json keras_config = config;
  keras_config["mean"] = 3.0;
  keras_config["variance"] = json::array({json::array({2.0})});
  auto from_keras = Layer::deserialize(serialize_object("Normalization", keras_config));
  check_close((*from_keras)(Tensor::from_vector<float>({3, 5}, {2, 1})), {2, 1}, {3.0 + 3.0 * std::sqrt(2.0), 3.0 + 5.0 * std::sqrt(2.0)});  // invert: mean + x * std
  CHECK_THROWS_WITH(layers::Normalization({.mean = std::vector<double>{1.0}}), Catch::Contains("variance"));
  layers::Normalization fixed({.mean = std::vector<double>{1, 2}, .variance = std::vector<double>{1, 1}});
  CHECK_THROWS_WITH(fixed(Tensor::ones({2, 3})), Catch::Contains("Normalization") && Catch::Contains("3"));
  CHECK_THROWS_WITH(layers::Normalization({.axis = std::vector<int>{3}})(Tensor::ones({2, 3})), Catch::Contains("axis"));
}

TEST_CASE("Discretization bins as tf.bucketize (NumPy's digitize) and Keras's docstring example", "[preprocessing]") {
  layers::Discretization doc({.bin_boundaries = std::vector<double>{0., 1., 2.}});
  const Tensor in = Tensor::from_vector<float>({-1.5, 1.0, 3.4, .5, 0.0, 3.0, 1.3, 0.0}, {2, 4});
  const Tensor out = doc(in);
  CHECK(out.dtype() == DType::int64);
  CHECK(values(out) == std::vector<float>{0, 2, 3, 1, 1, 3, 2, 1});
  const auto& g = golden()["discretization"];
  layers::Discretization d({.bin_boundaries = g["boundaries"].get<std::vector<double>>()});
  check_close(d(golden_tensor(g["input"])).astype(DType::float32), g["output"]);
  // Encoded outputs go through CategoryEncoding over len(boundaries) + 1 bins.
  layers::Discretization counts({.bin_boundaries = std::vector<double>{0., 1., 2.}, .output_mode = "count"});
  check_close(counts(in), {2, 4}, {1, 1, 1, 1, 0, 2, 1, 1});
  const auto again = Layer::deserialize(serialize_object("Discretization", counts.get_config()));
  CHECK(values((*again)(in)) == values(counts(in)));
  CHECK(counts.get_config()["bin_boundaries"] == json::array({0.0, 1.0, 2.0}));
  CHECK_THROWS_WITH(layers::Discretization({.num_bins = 4})(in), Catch::Contains("Discretization"));
  CHECK_THROWS_WITH(layers::Discretization({.bin_boundaries = std::vector<double>{2, 1}}), Catch::Contains("sorted"));
}

TEST_CASE("CategoryEncoding reproduces Keras's docstring examples and checks its ids", "[preprocessing]") {
  layers::CategoryEncoding one_hot(4, {.output_mode = "one_hot"});
  check_close(one_hot(Tensor::from_vector<float>({3, 2, 0, 1}).astype(DType::int64)), {4, 4},
              {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0});
  const Tensor pairs = Tensor::from_vector<float>({0, 1, 0, 0, 1, 2, 3, 1}, {4, 2}).astype(DType::int32);
  check_close(layers::CategoryEncoding(4)(pairs), {4, 4}, {1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1});
  check_close(layers::CategoryEncoding(4, {.output_mode = "count"})(pairs), {4, 4},
              {1, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1});
  CHECK_THROWS_WITH(layers::CategoryEncoding(3)(pairs), Catch::Contains("CategoryEncoding") && Catch::Contains("num_tokens=3"));
  CHECK_THROWS_WITH(one_hot(pairs), Catch::Contains("rank is 2"));
  CHECK_THROWS_WITH(layers::CategoryEncoding(3, {.output_mode = "tf_idf"}), Catch::Contains("output_mode"));
  const auto config = layers::CategoryEncoding(5, {.output_mode = "count"}).get_config();
  CHECK(config["num_tokens"] == 5);
  CHECK(Layer::deserialize(serialize_object("CategoryEncoding", config))->get_config() == config);
}
