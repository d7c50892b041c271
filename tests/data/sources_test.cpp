#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "test_util.hpp"
#include "test_paths.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;

TEST_CASE("range, its cardinality and element_spec", "[data]") {
  CHECK(scalars(Dataset::range(5)) == iota(0, 5));
  CHECK(scalars(Dataset::range(2, 10, 3)) == std::vector<std::int64_t>{2, 5, 8});
  CHECK(scalars(Dataset::range(5, 0, -2)) == std::vector<std::int64_t>{5, 3, 1});
  CHECK(Dataset::range(2, 10, 3).cardinality() == 3);
  CHECK(Dataset::range(5, 0, -2).cardinality() == 3);
  CHECK(Dataset::range(5, 5).cardinality() == 0);
  CHECK(spec_str(Dataset::range(3).element_spec()) == "TensorSpec(shape=(), dtype=int64)");
}

TEST_CASE("from_tensor_slices of a tensor, a tuple and named components", "[data]") {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  Tensor y = Tensor::from_vector<std::int32_t>({7, 8, 9});
  auto single = Dataset::from_tensor_slices(x);
  CHECK(single.cardinality() == 3);
  CHECK(values(single) == std::vector<std::vector<std::int64_t>>{{1, 2}, {3, 4}, {5, 6}});

  auto pairs = Dataset::from_tensor_slices(x, y);
  CHECK(spec_str(pairs.element_spec()) ==
        "(TensorSpec(shape=(2,), dtype=float32), TensorSpec(shape=(), dtype=int32))");
  std::vector<std::int64_t> labels;
  for (const Element& e : pairs) labels.push_back(scalar(e[1]));
  CHECK(labels == std::vector<std::int64_t>{7, 8, 9});

  auto dict = Dataset::from_tensor_slices(named({{"label", y}, {"image", x}}));
  auto it = dict.make_iterator();
  Element first = it.get_next();
  CHECK(first.keys() == std::vector<std::string>{"image", "label"});
  CHECK(scalar(first["label"]) == 7);
  CHECK(first["image"].leaf().tensor().to_vector<float>() == std::vector<float>{1, 2});
  CHECK_THROWS_AS(first["nope"], ValueError);

  CHECK_THROWS_WITH(Dataset::from_tensor_slices(x, Tensor::zeros({4})),
                    Catch::Contains("same size in the first dimension"));
}

TEST_CASE("from_tensors gives one element, get_next ends with OutOfRangeError", "[data]") {
  auto ds = Dataset::from_tensors(Tensor::from_vector<float>({1, 2, 3}));
  CHECK(ds.cardinality() == 1);
  auto it = ds.make_iterator();
  CHECK(it.get_next().leaf().shape() == Shape{3});
  CHECK_THROWS_AS(it.get_next(), OutOfRangeError);
  CHECK_FALSE(it.get_next_as_optional().has_value());
}

TEST_CASE("from_generator: a fresh generator per pass, finite or infinite", "[data]") {
  int made = 0;
  auto ds = Dataset::from_generator([&made] {
    ++made;
    return Generator([i = 0]() mutable -> std::optional<Element> {
      if (i >= 3) return std::nullopt;
      return Element(Tensor::full({}, i++, DType::int64));
    });
  });
  CHECK(scalars(ds) == iota(0, 3));
  CHECK(scalars(ds) == iota(0, 3));
  CHECK(made == 2);
  CHECK(ds.cardinality() == UNKNOWN_CARDINALITY);

  auto forever = Dataset::from_generator([] {
    return Generator([i = 0]() mutable -> std::optional<Element> { return Element(Tensor::full({}, i++, DType::int64)); });
  });
  CHECK(scalars(forever.take(4)) == iota(0, 4));
}

TEST_CASE("strings: slices, batch and padded batch", "[data]") {
  auto ds = Dataset::from_tensor_slices(Component::strings({"a", "bb", "ccc"}, {3}));
  std::vector<std::string> got;
  for (const Element& e : ds) got.push_back(e.leaf().str());
  CHECK(got == std::vector<std::string>{"a", "bb", "ccc"});
  Element b = ds.batch(2).make_iterator().get_next();
  CHECK(b.leaf().shape() == Shape{2});
  CHECK(b.leaf().string_values() == std::vector<std::string>{"a", "bb"});
  CHECK(spec_str(ds.element_spec()) == "TensorSpec(shape=(), dtype=string)");
}

TEST_CASE("list_files globs, sorted without shuffle", "[data]") {
  auto ds = Dataset::list_files(std::string(keras_test::golden_dir) + "/make_*_golden.py", false);
  std::vector<std::string> files;
  for (const Element& e : ds) files.push_back(e.leaf().str());
  REQUIRE(files.size() >= 2);
  CHECK(std::is_sorted(files.begin(), files.end()));
  CHECK(Dataset::list_files(std::string(keras_test::golden_dir) + "/make_*_golden.py").cardinality() == ds.cardinality());
  CHECK_THROWS_AS(Dataset::list_files("/nonexistent/*.x"), IOError);
}
