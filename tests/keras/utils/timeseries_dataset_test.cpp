// keras::utils::timeseries_dataset_from_array: Keras's three docstring examples, NumPy's fancy indexing as
// the reference for strides, sampling rates, start/end indices and batches (make_utils_golden.py), the
// shuffle, and Keras's argument errors.
#include <algorithm>
#include <numeric>

#include <catch2/catch.hpp>

#include "golden.hpp"

using namespace keras;
using utils::timeseries_dataset_from_array;

namespace {

Tensor arange(std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0.f);
  return Tensor::from_vector(v, {n});
}

// Every window (and target) of a dataset, unbatched, as float rows.
struct Collected {
  std::vector<std::vector<float>> windows;
  std::vector<std::vector<float>> targets;
  std::vector<std::int64_t> batch_sizes;
};
Collected collect(const data::Dataset& ds, bool with_targets, bool batched = true) {
  Collected c;
  for (const data::Element& e : ds) {
    const Tensor x = (with_targets ? e[0] : e).leaf().tensor();
    const std::int64_t rows = batched ? x.dim(0) : 1;
    c.batch_sizes.push_back(rows);
    const auto xs = x.to_vector<float>();
    const auto per = xs.size() / static_cast<std::size_t>(rows);
    for (std::int64_t r = 0; r < rows; ++r)
      c.windows.emplace_back(xs.begin() + static_cast<long>(per * r), xs.begin() + static_cast<long>(per * (r + 1)));
    if (with_targets) {
      const auto ys = e[1].leaf().tensor().to_vector<float>();
      const auto tper = ys.size() / static_cast<std::size_t>(rows);
      for (std::int64_t r = 0; r < rows; ++r)
        c.targets.emplace_back(ys.begin() + static_cast<long>(tper * r), ys.begin() + static_cast<long>(tper * (r + 1)));
    }
  }
  return c;
}

}  // namespace

TEST_CASE("timeseries_dataset_from_array: Keras's docstring example 1 (indices 0..98)", "[utils]") {
  const auto ds = timeseries_dataset_from_array(arange(99), std::nullopt, 10, {.sequence_stride = 3, .sampling_rate = 2});
  const Collected c = collect(ds, false);
  REQUIRE(c.windows.size() == 27);  // starts 0, 3, ..., 78
  CHECK(c.windows[0] == std::vector<float>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18});
  CHECK(c.windows[1] == std::vector<float>{3, 5, 7, 9, 11, 13, 15, 17, 19, 21});
  CHECK(c.windows[2] == std::vector<float>{6, 8, 10, 12, 14, 16, 18, 20, 22, 24});
  CHECK(c.windows.back() == std::vector<float>{78, 80, 82, 84, 86, 88, 90, 92, 94, 96});
  CHECK(c.batch_sizes == std::vector<std::int64_t>{27});  // batch_size 128 by default
}

TEST_CASE("timeseries_dataset_from_array: docstring examples 2 and 3 (regression targets, non-overlapping)", "[utils]") {
  const Tensor data = arange(60);
  const auto ds = timeseries_dataset_from_array(data.slice(0, 50), data.slice(10, 60), 10);
  const data::Element first = *ds.begin();
  CHECK(first[0].leaf().tensor().dim(1) == 10);
  CHECK(first[0].leaf().tensor().slice(0, 1).to_vector<float>() == data.slice(0, 10).to_vector<float>());
  CHECK(first[1].leaf().tensor().slice(0, 1).to_vector<float>() == std::vector<float>{10});

  const Tensor X = arange(100);
  const Tensor Y = Tensor::from_vector<float>([&] {
    auto v = X.to_vector<float>();
    for (auto& y : v) y *= 2;
    return v;
  }());
  const auto inputs = collect(timeseries_dataset_from_array(X, std::nullopt, 20, {.sequence_stride = 20}), false);
  const auto targets = collect(timeseries_dataset_from_array(Y, std::nullopt, 20, {.sequence_stride = 20}), false);
  REQUIRE(inputs.windows.size() == 5);
  CHECK(inputs.windows[0] == X.slice(0, 20).to_vector<float>());
  CHECK(targets.windows[1] == Y.slice(20, 40).to_vector<float>());
}

TEST_CASE("timeseries_dataset_from_array equals NumPy's windows for strides, rates and start/end", "[utils]") {
  const json g = keras::testing::load_golden("utils.json")["timeseries"];
  const Tensor data = keras::testing::golden_tensor(g["data"]), targets = keras::testing::golden_tensor(g["targets"]);
  for (const auto& c : g["cases"]) {
    INFO("sequence_length " << c["sequence_length"] << " stride " << c["sequence_stride"] << " rate " << c["sampling_rate"]);
    utils::TimeseriesDatasetOptions o{.sequence_stride = c["sequence_stride"].get<std::int64_t>(),
                                      .sampling_rate = c["sampling_rate"].get<std::int64_t>(),
                                      .batch_size = c["batch_size"].get<std::int64_t>()};
    if (!c["start_index"].is_null()) o.start_index = c["start_index"].get<std::int64_t>();
    if (!c["end_index"].is_null()) o.end_index = c["end_index"].get<std::int64_t>();
    const bool with_targets = c.contains("targets");
    const auto ds = timeseries_dataset_from_array(data, with_targets ? std::optional(targets) : std::nullopt,
                                                  c["sequence_length"].get<std::int64_t>(), o);
    const Collected got = collect(ds, with_targets, o.batch_size > 0);
    const Shape wshape = c["windows"]["shape"].get<Shape>();
    const auto want = c["windows"]["data"].get<std::vector<float>>();
    REQUIRE(static_cast<std::int64_t>(got.windows.size()) == wshape[0]);
    const auto per = static_cast<std::size_t>(wshape[1] * wshape[2]);
    for (std::size_t i = 0; i < got.windows.size(); ++i)
      CHECK(got.windows[i] == std::vector<float>(want.begin() + static_cast<long>(i * per), want.begin() + static_cast<long>((i + 1) * per)));
    if (with_targets) {
      const auto ty = c["targets"]["data"].get<std::vector<float>>();
      for (std::size_t i = 0; i < got.targets.size(); ++i) CHECK(got.targets[i] == std::vector<float>{ty[i]});
    }
    if (o.batch_size > 0)
      for (std::size_t b = 0; b + 1 < got.batch_sizes.size(); ++b) CHECK(got.batch_sizes[b] == o.batch_size);
  }
}

TEST_CASE("timeseries_dataset_from_array: a seeded shuffle reorders the same windows reproducibly", "[utils]") {
  const Tensor data = arange(200);
  auto make = [&](std::uint64_t seed) {
    return collect(timeseries_dataset_from_array(data, data, 5, {.batch_size = 16, .shuffle = true, .seed = seed}), true);
  };
  const Collected a = make(7), b = make(7), plain = collect(timeseries_dataset_from_array(data, data, 5, {.batch_size = 16}), true);
  CHECK(a.windows == b.windows);
  CHECK(a.windows != plain.windows);
  for (std::size_t i = 0; i < a.windows.size(); ++i) CHECK(a.targets[i][0] == a.windows[i][0]);  // pairs stay together
  auto sorted = a.windows;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == plain.windows);
}

TEST_CASE("timeseries_dataset_from_array refuses Keras's bad arguments", "[utils]") {
  const Tensor data = arange(20);
  auto make = [&](std::int64_t len, utils::TimeseriesDatasetOptions o) { return timeseries_dataset_from_array(data, std::nullopt, len, o); };
  CHECK_THROWS_WITH(make(3, {.start_index = -1}), Catch::Contains("start_index must be 0 or greater"));
  CHECK_THROWS_WITH(make(3, {.start_index = 20}), Catch::Contains("start_index must be lower than the length"));
  CHECK_THROWS_WITH(make(3, {.start_index = 8, .end_index = 5}), Catch::Contains("end_index must be higher than start_index"));
  CHECK_THROWS_WITH(make(3, {.end_index = 20}), Catch::Contains("end_index must be lower than the length"));
  CHECK_THROWS_WITH(make(3, {.sampling_rate = 0}), Catch::Contains("sampling_rate must be higher than 0"));
  CHECK_THROWS_WITH(make(3, {.sampling_rate = 20}), Catch::Contains("sampling_rate must be lower"));
  CHECK_THROWS_WITH(make(3, {.sequence_stride = 0}), Catch::Contains("sequence_stride must be higher than 0"));
  CHECK_THROWS_WITH(make(0, {}), Catch::Contains("sequence_length must be higher than 0"));
  CHECK_THROWS_WITH(make(21, {}), Catch::Contains("no window fits"));
}
