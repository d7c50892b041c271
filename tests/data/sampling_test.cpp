// choose_from_datasets, sample_from_datasets and rejection_resample against tf.data's documented examples.
#include <algorithm>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;

namespace {
std::vector<std::string> strings(const Dataset& ds) {
  std::vector<std::string> out;
  for (const Element& e : ds) out.push_back(e.leaf().str());
  return out;
}
Dataset choices(std::vector<std::int64_t> v) { return Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>(v)); }
}  // namespace

TEST_CASE("choose_from_datasets: tf's example picks foo, bar, baz by a dataset of indices", "[data][sampling]") {
  std::vector<Dataset> datasets = {Dataset::from_tensors(Component("foo")).repeat(), Dataset::from_tensors(Component("bar")).repeat(),
                                   Dataset::from_tensors(Component("baz")).repeat()};
  auto result = Dataset::choose_from_datasets(datasets, Dataset::range(3).repeat(3));
  CHECK(strings(result) == std::vector<std::string>{"foo", "bar", "baz", "foo", "bar", "baz", "foo", "bar", "baz"});
  CHECK(Dataset::choose_from_datasets(datasets, Dataset::range(3).repeat()).cardinality() == INFINITE_CARDINALITY);
}

TEST_CASE("choose_from_datasets: stop_on_empty_dataset, bad indices and bad choice datasets", "[data][sampling]") {
  std::vector<Dataset> two = {Dataset::range(2), Dataset::range(10, 13)};
  CHECK(scalars(Dataset::choose_from_datasets(two, choices({0, 0, 0, 1, 1}))) == std::vector<std::int64_t>{0, 1});
  CHECK(scalars(Dataset::choose_from_datasets(two, choices({0, 0, 0, 1, 1}), false)) == std::vector<std::int64_t>{0, 1, 10, 11});
  CHECK_THROWS_WITH(scalars(Dataset::choose_from_datasets(two, choices({1, 2}))),
                    Catch::Contains("selector index 2 is out of range; there are 2 datasets"));
  CHECK_THROWS_WITH(Dataset::choose_from_datasets(two, Dataset::from_tensor_slices(Tensor::from_vector<float>({0.f}))),
                    Catch::Contains("choice_dataset must yield int64 scalars"));
  CHECK_THROWS_WITH(Dataset::choose_from_datasets({Dataset::range(2), Dataset::from_tensors(Component("x"))}, choices({0})),
                    Catch::Contains("cast them to one dtype"));
  CHECK_THROWS_WITH(Dataset::choose_from_datasets({}, choices({0})), Catch::Contains("non-empty list"));
}

TEST_CASE("sample_from_datasets: tf's example interleaves range(0, 3) and range(100, 103) at random", "[data][sampling]") {
  auto sample = Dataset::sample_from_datasets({Dataset::range(0, 3), Dataset::range(100, 103)}, {.weights = std::vector<double>{0.5, 0.5}, .seed = 7});
  const auto got = scalars(sample);
  // Every element once, each dataset's in its own order (sampling without replacement).
  std::vector<std::int64_t> sorted = got, low, high;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::int64_t>{0, 1, 2, 100, 101, 102});
  for (auto v : got) (v < 100 ? low : high).push_back(v);
  CHECK(low == std::vector<std::int64_t>{0, 1, 2});
  CHECK(high == std::vector<std::int64_t>{100, 101, 102});
  CHECK(scalars(sample) == got);  // a seed repeats the draw each pass
  // Over many seeds both datasets lead sometimes.
  std::set<std::int64_t> firsts;
  for (std::uint64_t seed = 0; seed < 20; ++seed)
    firsts.insert(scalars(Dataset::sample_from_datasets({Dataset::range(0, 3), Dataset::range(100, 103)}, {.seed = seed}))[0]);
  CHECK(firsts == std::set<std::int64_t>{0, 100});
}

TEST_CASE("sample_from_datasets: weights give the proportions, stop_on_empty_dataset, errors", "[data][sampling]") {
  auto zeros = Dataset::from_tensors(Element(Tensor::full({}, 0, DType::int64))).repeat();
  auto ones = Dataset::from_tensors(Element(Tensor::full({}, 1, DType::int64))).repeat();
  const auto drawn = scalars(Dataset::sample_from_datasets({zeros, ones}, {.weights = std::vector<double>{0.8, 0.2}, .seed = 3}).take(20000));
  const double frac_one = static_cast<double>(std::count(drawn.begin(), drawn.end(), 1)) / 20000.0;
  CHECK(frac_one == Approx(0.2).margin(0.015));
  CHECK(Dataset::sample_from_datasets({zeros, ones}).cardinality() == INFINITE_CARDINALITY);

  // stop_on_empty_dataset: the result ends the first time the short dataset is drawn after its end.
  auto stop = scalars(Dataset::sample_from_datasets({Dataset::range(3), Dataset::range(100, 1000)}, {.seed = 1, .stop_on_empty_dataset = true}));
  CHECK(std::count_if(stop.begin(), stop.end(), [](auto v) { return v < 100; }) == 3);
  CHECK(stop.size() < 100);
  auto skip = scalars(Dataset::sample_from_datasets({Dataset::range(3), Dataset::range(100, 1000)}, {.seed = 1}));
  CHECK(skip.size() == 903);

  CHECK_THROWS_WITH(Dataset::sample_from_datasets({zeros, ones}, {.weights = std::vector<double>{1.0}}),
                    Catch::Contains("got 1 weights for 2 datasets"));
  CHECK_THROWS_WITH(Dataset::sample_from_datasets({zeros, ones}, {.weights = std::vector<double>{1.0, -1.0}}),
                    Catch::Contains("non-negative"));
  CHECK_THROWS_WITH(Dataset::sample_from_datasets({zeros, ones}, {.weights = std::vector<double>{0.0, 0.0}}),
                    Catch::Contains("sum to 0"));
}

TEST_CASE("sample_from_datasets: the iterator's position saves and restores", "[data][sampling]") {
  auto ds = Dataset::sample_from_datasets({Dataset::range(0, 50), Dataset::range(100, 150)}, {.seed = 11});
  auto it = ds.make_iterator();
  for (int i = 0; i < 17; ++i) it.get_next();
  const json state = it.save();
  std::vector<std::int64_t> rest;
  while (auto e = it.get_next_as_optional()) rest.push_back(scalar(*e));
  auto again = ds.make_iterator();
  again.restore(state);
  std::vector<std::int64_t> resumed;
  while (auto e = again.get_next_as_optional()) resumed.push_back(scalar(*e));
  CHECK(resumed == rest);
  CHECK(rest.size() == 83);
}

TEST_CASE("rejection_resample: tf's example moves a 0.6/0.4 class mix to 0.5/0.5", "[data][sampling]") {
  // Elements drawn with p = [0.6, 0.4], as np.random.choice does in tf's example.
  std::mt19937_64 rng(5);
  std::vector<std::int64_t> elems;
  for (int i = 0; i < 40000; ++i) elems.push_back(std::bernoulli_distribution(0.4)(rng) ? 1 : 0);
  auto dataset = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>(elems));
  auto fraction_zero = [](const Dataset& ds) {
    std::int64_t zero = 0, n = 0;
    for (const Element& e : ds) {
      REQUIRE(scalar(e[0]) == scalar(e[1]));  // (class_func result, element)
      zero += scalar(e[1]) == 0;
      ++n;
    }
    return static_cast<double>(zero) / static_cast<double>(n);
  };
  auto identity = [](const Element& e) { return scalar(e); };
  auto known = dataset.rejection_resample(identity, {0.5, 0.5}, {.initial_dist = std::vector<double>{0.6, 0.4}, .seed = 1});
  CHECK(fraction_zero(known) == Approx(0.5).margin(0.01));
  auto estimated = dataset.rejection_resample(identity, {0.5, 0.5}, {.seed = 2});
  CHECK(fraction_zero(estimated) == Approx(0.5).margin(0.01));
  auto skewed = dataset.rejection_resample(identity, {0.9, 0.1}, {.seed = 3});
  CHECK(fraction_zero(skewed) == Approx(0.9).margin(0.01));
  CHECK(spec_str(known.element_spec()).find("int64") != std::string::npos);

  CHECK_THROWS_WITH(dataset.rejection_resample(identity, {0.5, 0.6}), Catch::Contains("target_dist must sum to 1"));
  CHECK_THROWS_WITH(dataset.rejection_resample(identity, {0.5, 0.5}, {.initial_dist = std::vector<double>{1.0}}),
                    Catch::Contains("initial_dist has 1 classes, target_dist 2"));
  CHECK_THROWS_WITH(fraction_zero(dataset.rejection_resample([](const Element&) { return std::int64_t{5}; }, {0.5, 0.5})),
                    Catch::Contains("class_func returned 5, outside [0, 2)"));
}
