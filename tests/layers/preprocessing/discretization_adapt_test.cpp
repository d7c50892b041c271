// Discretization.adapt(): Keras's docstring example, Keras's own summary functions on batched data
// (tests/golden/make_discretization_golden.py), NumPy's quantiles where Keras's summary is exact (fewer
// values than 1/epsilon; make_utils_golden.py), the epsilon bound on many batches, the config after
// adapt, saved models, and errors.
#include <algorithm>
#include <random>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
using layers::Discretization;

TEST_CASE("Discretization.adapt reproduces Keras's docstring example", "[preprocessing]") {
  const Tensor input = Tensor::from_vector<float>({-1.5f, 1.0f, 3.4f, .5f, 0.0f, 3.0f, 1.3f, 0.0f}, {2, 4});
  Discretization layer({.num_bins = 4, .epsilon = 0.01});
  layer.adapt(input);
  CHECK(layer.bin_boundaries() == std::vector<double>{0.0, 0.5, static_cast<double>(1.3f)});
  CHECK(layer(input).to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 2, 3, 2, 1, 3, 3, 1});
}

TEST_CASE("Discretization.adapt on a batched Dataset gives the boundaries of Keras's own summary code, bit for bit", "[preprocessing]") {
  const json cases = keras::testing::load_golden("discretization_keras.json");
  REQUIRE(cases.size() == 4);
  for (const auto& c : cases) {
    const auto values = c["data"].get<std::vector<float>>();
    const Tensor x = Tensor::from_vector(values, {static_cast<std::int64_t>(values.size())});
    Discretization layer({.num_bins = c["num_bins"].get<std::int64_t>(), .epsilon = c["epsilon"].get<double>()});
    layer.adapt(data::Dataset::from_tensor_slices(data::Element(x)).batch(c["batch_size"].get<std::int64_t>()));
    INFO("n = " << values.size() << ", batch " << c["batch_size"] << ", num_bins " << c["num_bins"]);
    CHECK(layer.bin_boundaries() == c["boundaries"].get<std::vector<double>>());
  }
}

TEST_CASE("Discretization.adapt equals NumPy's interpolated inverted-CDF quantiles on small data", "[preprocessing]") {
  for (const auto& c : keras::testing::load_golden("utils.json")["discretization"]) {
    const Tensor x = keras::testing::golden_tensor(c["input"]);
    Discretization layer({.num_bins = c["num_bins"].get<std::int64_t>(), .epsilon = c["epsilon"].get<double>()});
    layer.adapt(x);
    const auto want = c["boundaries"].get<std::vector<double>>();
    const auto got = layer.bin_boundaries();
    INFO("n = " << x.size() << ", num_bins = " << c["num_bins"]);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-6).margin(1e-6));
  }
  // Fewer values than bins: Keras keeps the sorted values but the last as boundaries.
  Discretization few({.num_bins = 5});
  few.adapt(Tensor::from_vector<float>({3, 1, 2}));
  CHECK(few.bin_boundaries() == std::vector<double>{1, 2});
}

TEST_CASE("Discretization.adapt: within epsilon of the true quantiles on one batch, Keras's drift over many", "[preprocessing]") {
  std::mt19937 gen(19);
  std::normal_distribution<float> normal(2.f, 3.f);
  std::vector<float> all(20000);
  for (auto& v : all) v = normal(gen);
  const Tensor x = Tensor::from_vector(all, {20000, 1});
  std::vector<float> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  auto ranks = [&](const std::vector<double>& b) {
    std::vector<double> r;
    for (double v : b) r.push_back(static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), v) - sorted.begin()) / 20000.0);
    return r;
  };
  const double eps = 0.01;
  Discretization whole({.num_bins = 8, .epsilon = eps});
  whole.adapt(x);
  const auto exact = ranks(whole.bin_boundaries());
  REQUIRE(exact.size() == 7);
  for (std::size_t i = 0; i < exact.size(); ++i) CHECK(exact[i] == Approx((i + 1) / 8.0).margin(eps));
  // Keras's merge of 40 batch summaries drifts towards higher ranks, by 0.02-0.03 here (Keras's own
  // functions give the same on such data: make_discretization_golden.py checks the bits).
  Discretization batched({.num_bins = 8, .epsilon = eps});
  batched.adapt(data::Dataset::from_tensor_slices(x).batch(500));
  const auto drift = ranks(batched.bin_boundaries());
  REQUIRE(drift.size() == 7);
  for (std::size_t i = 0; i < drift.size(); ++i) CHECK(drift[i] == Approx((i + 1) / 8.0).margin(5 * eps));
  // One batch holding everything is the array adapt.
  Discretization one({.num_bins = 8, .epsilon = eps});
  one.adapt(data::Dataset::from_tensor_slices(data::tuple({x, x})).batch(20000));
  CHECK(whole.bin_boundaries() == one.bin_boundaries());
}

TEST_CASE("Discretization after adapt: config round trip and saved models keep the boundaries", "[preprocessing]") {
  Discretization layer({.num_bins = 3, .output_mode = "one_hot"});
  layer.adapt(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {6, 1}));
  const json config = layer.get_config();
  CHECK(config["num_bins"] == 3);
  CHECK(config["bin_boundaries"].get<std::vector<double>>() == layer.bin_boundaries());
  auto again = std::dynamic_pointer_cast<Discretization>(Discretization::from_config(config));
  REQUIRE(again);
  CHECK(again->bin_boundaries() == layer.bin_boundaries());
  const Tensor probe = Tensor::from_vector<float>({0, 2.5f, 9}, {3, 1});
  CHECK(again->call(probe, false).to_vector<float>() == layer(probe).to_vector<float>());

  keras_test::TempDir dir("disc_adapt");
  auto disc = std::make_shared<Discretization>(layers::DiscretizationOptions{.num_bins = 4});
  disc->adapt(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {8, 1}));
  Sequential model({layers::Input({1}), disc});
  const Tensor want = model.predict(probe);
  CHECK(want.to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 3});  // boundaries 2, 4, 6
  for (const std::string file : {dir / "m.h5", dir / "m.keras"}) {
    model.save(file);
    CHECK(models::load_model(file)->predict(probe).to_vector<std::int64_t>() == want.to_vector<std::int64_t>());
  }
}

TEST_CASE("Discretization.adapt: errors name the layer", "[preprocessing]") {
  Discretization given({.bin_boundaries = std::vector<double>{0, 1}, .name = "given"});
  CHECK_THROWS_WITH(given.adapt(Tensor::from_vector<float>({1, 2})), Catch::Contains("'given'") && Catch::Contains("give `num_bins`"));
  Discretization unadapted({.num_bins = 3, .name = "fresh"});
  CHECK_THROWS_WITH(unadapted(Tensor::from_vector<float>({1, 2})), Catch::Contains("call adapt(data)"));
  Discretization zero({.num_bins = 0});
  CHECK_THROWS_WITH(zero.adapt(Tensor::from_vector<float>({1, 2})), Catch::Contains("num_bins >= 1"));
  CHECK_THROWS_AS(Discretization({.num_bins = -1}), ValueError);
  CHECK_THROWS_AS(Discretization({.num_bins = 3, .epsilon = 0}), ValueError);
  Discretization empty({.num_bins = 3});
  CHECK_THROWS_WITH(empty.adapt(Tensor::zeros({0, 2})), Catch::Contains("no data"));
}
