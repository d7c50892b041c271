// scan, rebatch, unique, take_while and ignore_errors against tf.data's documented examples.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;
using V = std::vector<std::vector<std::int64_t>>;

namespace {
Element i64(std::int64_t v) { return Element(Tensor::full({}, static_cast<double>(v), DType::int64)); }
}  // namespace

TEST_CASE("scan: tf's example yields the running sums of range(10)", "[data][scan]") {
  auto ds = Dataset::range(10).scan(i64(0), [](const Element& state, const Element& i) {
    const Element s = i64(scalar(state) + scalar(i));
    return std::pair{s, s};
  });
  CHECK(scalars(ds) == std::vector<std::int64_t>{0, 1, 3, 6, 10, 15, 21, 28, 36, 45});
  CHECK(ds.cardinality() == 10);
  // The state restarts each pass, and travels in a saved iterator.
  CHECK(scalars(ds) == std::vector<std::int64_t>{0, 1, 3, 6, 10, 15, 21, 28, 36, 45});
  auto it = ds.make_iterator();
  for (int i = 0; i < 4; ++i) it.get_next();
  const json state = it.save();
  auto again = ds.make_iterator();
  again.restore(state);
  CHECK(scalar(again.get_next()) == 10);
  // A state whose dtype changes is refused, as tf refuses it.
  auto bad = Dataset::range(3).scan(i64(0), [](const Element&, const Element& e) {
    return std::pair{Element(Tensor::full({}, 1.0)), e};
  });
  CHECK_THROWS_WITH(scalars(bad), Catch::Contains("scan: scan_func returned a state"));
}

TEST_CASE("rebatch: tf's three examples", "[data][rebatch]") {
  CHECK(values(Dataset::range(6).batch(2).rebatch(3)) == V{{0, 1, 2}, {3, 4, 5}});
  CHECK(values(Dataset::range(7).batch(4).rebatch(3)) == V{{0, 1, 2}, {3, 4, 5}, {6}});
  CHECK(values(Dataset::range(7).batch(2).rebatch(std::vector<std::int64_t>{2, 1, 1})) == V{{0, 1}, {2}, {3}, {4, 5}, {6}});
  CHECK(values(Dataset::range(7).batch(4).rebatch(3, true)) == V{{0, 1, 2}, {3, 4, 5}});
  CHECK(Dataset::range(7).batch(4).rebatch(3, true).element_spec().leaf().shape == Shape{3});
}

TEST_CASE("rebatch: tuples, save/restore mid-batch, and unbatched input refused", "[data][rebatch]") {
  auto x = Tensor::from_vector<std::int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {5, 2});
  auto y = Tensor::from_vector<std::int64_t>({10, 11, 12, 13, 14});
  auto ds = Dataset::from_tensor_slices(x, y).batch(2).rebatch(3);
  auto it = ds.make_iterator();
  Element first = it.get_next();
  CHECK(first[0].leaf().shape() == Shape{3, 2});
  CHECK(first[1].leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{10, 11, 12});
  const json state = it.save();
  auto again = ds.make_iterator();
  again.restore(state);
  CHECK(again.get_next()[1].leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{13, 14});
  CHECK_THROWS_WITH(Dataset::range(4).rebatch(2), Catch::Contains("rebatch: the input's elements must be batched"));
  CHECK_THROWS_WITH(Dataset::range(4).batch(2).rebatch(0), Catch::Contains("batch sizes must be positive"));
}

TEST_CASE("unique: tf's example keeps 1, 37, 2 in first-seen order", "[data][unique]") {
  auto ds = Dataset::from_tensor_slices(Tensor::from_vector<std::int32_t>({1, 37, 2, 37, 2, 1})).unique();
  CHECK(scalars(ds) == std::vector<std::int64_t>{1, 37, 2});
  auto words = Dataset::from_tensor_slices(Component::strings({"a", "b", "a", "c", "b"}, {5})).unique();
  std::vector<std::string> got;
  for (const Element& e : words) got.push_back(e.leaf().str());
  CHECK(got == std::vector<std::string>{"a", "b", "c"});
  // The seen set is part of a saved position.
  auto it = ds.make_iterator();
  it.get_next();
  it.get_next();
  const json state = it.save();
  auto again = ds.make_iterator();
  again.restore(state);
  CHECK(scalar(again.get_next()) == 2);
  CHECK_FALSE(again.get_next_as_optional());
  CHECK_THROWS_WITH(Dataset::from_tensor_slices(Tensor::from_vector<float>({1.f})).unique(),
                    Catch::Contains("unique: only datasets of one int32, int64 or string component"));
}

TEST_CASE("take_while: tf's example stops range(10) at the first x >= 5", "[data]") {
  auto ds = Dataset::range(10).take_while([](const Element& e) { return scalar(e) < 5; });
  CHECK(scalars(ds) == std::vector<std::int64_t>{0, 1, 2, 3, 4});
  // It ends at the first failure even if later elements would pass.
  auto odd = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>({1, 3, 4, 5})).take_while([](const Element& e) { return scalar(e) % 2 == 1; });
  CHECK(scalars(odd) == std::vector<std::int64_t>{1, 3});
  CHECK_THROWS_WITH(Dataset::range(3).take_while(nullptr), Catch::Contains("take_while needs a predicate"));
}

TEST_CASE("ignore_errors: tf's example drops the element whose 1/x fails its numerics check", "[data]") {
  auto inverse = [](const Element& e) {
    const float x = e.leaf().tensor().to_vector<float>()[0];
    const float r = 1.f / x;
    if (!std::isfinite(r)) throw ValueError("check_numerics: error (Tensor had Inf values)");
    return Element(Tensor::full({}, r));
  };
  auto data = Dataset::from_tensor_slices(Tensor::from_vector<float>({1.f, 2.f, 0.f, 4.f}));
  auto read = [](const Dataset& ds) {
    std::vector<float> v;
    for (const Element& e : ds) v.push_back(e.leaf().tensor().to_vector<float>()[0]);
    return v;
  };
  CHECK(read(data.map(inverse).ignore_errors()) == std::vector<float>{1.f, 0.5f, 0.25f});
  CHECK(read(data.map(inverse, {.num_parallel_calls = 2}).ignore_errors(true)) == std::vector<float>{1.f, 0.5f, 0.25f});
  CHECK_THROWS_WITH(read(data.map(inverse)), Catch::Contains("check_numerics"));
}
