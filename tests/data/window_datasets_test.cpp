// window_datasets: tf's window as a dataset of datasets, against tf's documented examples.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;
using V = std::vector<std::vector<std::int64_t>>;

namespace {
V windows(const WindowDataset& w) {
  V out;
  for (const Dataset& window : w.windows()) out.push_back(scalars(window));
  return out;
}
}  // namespace

TEST_CASE("window_datasets: tf's examples of size, shift, stride and drop_remainder", "[data][window]") {
  CHECK(windows(Dataset::range(7).window_datasets(2)) == V{{0, 1}, {2, 3}, {4, 5}, {6}});
  CHECK(windows(Dataset::range(7).window_datasets(3, {.shift = 2, .stride = 1, .drop_remainder = true})) == V{{0, 1, 2}, {2, 3, 4}, {4, 5, 6}});
  CHECK(windows(Dataset::range(7).window_datasets(3, {.shift = 1, .stride = 2, .drop_remainder = true})) == V{{0, 2, 4}, {1, 3, 5}, {2, 4, 6}});
  CHECK(Dataset::range(7).window_datasets(2).cardinality() == 4);
  CHECK(Dataset::range(7).window_datasets(2).windows()[3].cardinality() == 1);
}

TEST_CASE("window_datasets: nested elements give nested windows (tuples and named components)", "[data][window]") {
  auto nested = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>({1, 2, 3, 4}), Tensor::from_vector<std::int64_t>({5, 6, 7, 8}));
  V first, second;
  for (const Dataset& w : nested.window_datasets(2).windows()) {
    first.push_back(scalars(WindowDataset::component(w, 0)));
    second.push_back(scalars(WindowDataset::component(w, 1)));
  }
  CHECK(first == V{{1, 2}, {3, 4}});
  CHECK(second == V{{5, 6}, {7, 8}});
  auto named_ds = Dataset::from_tensor_slices(named({{"a", Tensor::from_vector<std::int64_t>({1, 2, 3, 4})}}));
  V a;
  for (const Dataset& w : named_ds.window_datasets(2).windows()) a.push_back(scalars(WindowDataset::component(w, "a")));
  CHECK(a == V{{1, 2}, {3, 4}});
  CHECK(nested.window_datasets(2).element_spec().size() == 2);
}

TEST_CASE("window_datasets: flat_map over windows (batch each window) as tf and Keras write it", "[data][window]") {
  // tf: dataset.window(5, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(5))
  auto batched = Dataset::range(7).window_datasets(5, {.shift = 1, .drop_remainder = true}).flat_map([](const Dataset& w) { return w.batch(5); });
  CHECK(values(batched) == V{{0, 1, 2, 3, 4}, {1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}});
  // The same as the batched window transformation.
  CHECK(values(batched) == values(Dataset::range(7).window(5, {.shift = 1, .drop_remainder = true})));
  // A window of (x, y) pairs zipped back from its component datasets.
  auto pairs = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>({1, 2, 3}), Tensor::from_vector<std::int64_t>({4, 5, 6}));
  auto sums = pairs.window_datasets(2).flat_map([](const Dataset& w) {
    return Dataset::zip({WindowDataset::component(w, 0).batch(2), WindowDataset::component(w, 1).batch(2)});
  });
  std::vector<V> got;
  for (const Element& e : sums) got.push_back({e[0].leaf().tensor().to_vector<std::int64_t>(), e[1].leaf().tensor().to_vector<std::int64_t>()});
  CHECK(got == std::vector<V>{{{1, 2}, {4, 5}}, {{3}, {6}}});
  auto inter = Dataset::range(4).window_datasets(2).interleave([](const Dataset& w) { return w; }, {.cycle_length = 2});
  CHECK(scalars(inter) == std::vector<std::int64_t>{0, 2, 1, 3});
  // Saving a position inside the windows works (window and flat_map save).
  auto it = batched.make_iterator();
  it.get_next();
  const json state = it.save();
  auto again = batched.make_iterator();
  again.restore(state);
  CHECK(again.get_next().leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK_THROWS_WITH(Dataset::range(3).window_datasets(0), Catch::Contains("window: size, shift and stride must be positive"));
  CHECK_THROWS_WITH(Dataset::range(3).repeat().window_datasets(2).windows(), Catch::Contains("infinite"));
}
