// Discretization.adapt(): Keras's docstring example, NumPy's quantiles where Keras's summary is exact
// (fewer values than 1/epsilon; tests/golden/make_utils_golden.py), the epsilon bound on many batches,
// Datasets, the config after adapt, and errors.
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

TEST_CASE("Discretization.adapt over many batches stays within epsilon of the true quantiles", "[preprocessing]") {
  std::mt19937 gen(19);
  std::normal_distribution<float> normal(2.f, 3.f);
  std::vector<float> all(20000);
  for (auto& v : all) v = normal(gen);
  const Tensor x = Tensor::from_vector(all, {20000, 1});
  const double eps = 0.01;
  Discretization layer({.num_bins = 8, .epsilon = eps});
  layer.adapt(data::Dataset::from_tensor_slices(x).batch(500));
  const auto b = layer.bin_boundaries();
  REQUIRE(b.size() == 7);
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double rank = static_cast<double>(std::upper_bound(all.begin(), all.end(), b[i]) - all.begin()) / all.size();
    INFO("boundary " << i << " = " << b[i]);
    CHECK(rank == Approx((i + 1) / 8.0).margin(2 * eps));
  }
  // One batch holding everything is the array adapt.
  Discretization whole({.num_bins = 8, .epsilon = eps}), one({.num_bins = 8, .epsilon = eps});
  whole.adapt(x);
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
