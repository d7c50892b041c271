// group_by_window and bucket_by_sequence_length against tf.data's documented examples.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;
using V = std::vector<std::vector<std::int64_t>>;

namespace {
// Rows of every batch of a dataset of int 2-D batches.
std::vector<V> batches(const Dataset& ds) {
  std::vector<V> out;
  for (const Element& e : ds) {
    const Tensor t = e.leaf().tensor().astype(DType::int64);
    REQUIRE(t.shape().size() == 2);
    const auto flat = t.to_vector<std::int64_t>();
    V rows;
    for (std::int64_t r = 0; r < t.shape()[0]; ++r)
      rows.emplace_back(flat.begin() + r * t.shape()[1], flat.begin() + (r + 1) * t.shape()[1]);
    out.push_back(rows);
  }
  return out;
}

// tf's example: from_generator over these ragged rows, output_shapes=[None].
Dataset ragged_rows() {
  const V elements = {{0}, {1, 2, 3, 4}, {5, 6, 7}, {7, 8, 9, 10, 11}, {13, 14, 15, 16, 19, 20}, {21, 22}};
  return Dataset::from_generator(
      [elements] {
        auto i = std::make_shared<std::size_t>(0);
        return Generator([elements, i]() -> std::optional<Element> {
          if (*i >= elements.size()) return std::nullopt;
          return Element(Tensor::from_vector<std::int64_t>(elements[(*i)++]));
        });
      },
      ElementSpec(TensorSpec{{-1}, "int64"}));
}

std::int64_t length(const Element& e) { return e.leaf().shape()[0]; }
}  // namespace

TEST_CASE("group_by_window: tf's example groups range(10) by parity into windows of 5", "[data][grouping]") {
  auto ds = Dataset::range(10).group_by_window([](const Element& e) { return scalar(e) % 2; },
                                               [](std::int64_t, const Dataset& w) { return w.batch(5); }, 5);
  CHECK(values(ds) == V{{0, 2, 4, 6, 8}, {1, 3, 5, 7, 9}});
  CHECK(ds.element_spec().leaf().shape == Shape{-1});
  CHECK(ds.cardinality() == UNKNOWN_CARDINALITY);
}

TEST_CASE("group_by_window: partial windows come out at the end by ascending key, window_size_func", "[data][grouping]") {
  auto key = [](const Element& e) { return 2 - scalar(e) % 3; };  // keys 2, 1, 0, 2, 1, ...
  auto batch_all = [](std::int64_t, const Dataset& w) { return w.batch(10); };
  CHECK(values(Dataset::range(7).group_by_window(key, batch_all, 2)) == V{{0, 3}, {1, 4}, {2, 5}, {6}});
  // The key reaches reduce_func; window sizes per key.
  auto tagged = Dataset::range(9).group_by_window(
      key, [](std::int64_t k, const Dataset& w) { return w.map([k](const Element& e) { return Element(Tensor::full({}, static_cast<double>(k * 100 + scalar(e)), DType::int64)); }); },
      std::function<std::int64_t(std::int64_t)>([](std::int64_t k) { return k + 1; }));
  // key 0 (2, 5, 8) windows of 1; key 1 (1, 4, 7) of 2; key 2 (0, 3, 6) of 3.
  CHECK(scalars(tagged) == std::vector<std::int64_t>{2, 101, 104, 5, 200, 203, 206, 8, 107});
  CHECK_THROWS_WITH(Dataset::range(3).group_by_window(key, batch_all, 0), Catch::Contains("group_by_window: window_size must be positive"));
  auto zero = Dataset::range(3).group_by_window(key, batch_all, std::function<std::int64_t(std::int64_t)>([](std::int64_t) { return 0; }));
  CHECK_THROWS_WITH(scalars(zero), Catch::Contains("window size of key 2 must be positive"));
}

TEST_CASE("bucket_by_sequence_length: tf's first example, lengths below 3, 3 to 4 and 5 up, batch 2", "[data][grouping]") {
  auto ds = ragged_rows().bucket_by_sequence_length(length, {3, 5}, {2, 2, 2});
  CHECK(batches(ds) == std::vector<V>{{{1, 2, 3, 4}, {5, 6, 7, 0}}, {{7, 8, 9, 10, 11, 0}, {13, 14, 15, 16, 19, 20}}, {{0, 0}, {21, 22}}});
}

TEST_CASE("bucket_by_sequence_length: tf's second example pads to the bucket boundary with -1", "[data][grouping]") {
  auto ds = ragged_rows().bucket_by_sequence_length(length, {4, 7}, {2, 2, 2},
                                                    {.padding_values = Nest<double>(-1.0), .pad_to_bucket_boundary = true});
  CHECK(batches(ds) == std::vector<V>{{{0, -1, -1}, {5, 6, 7}}, {{1, 2, 3, 4, -1, -1}, {7, 8, 9, 10, 11, -1}}, {{21, 22, -1}},
                                      {{13, 14, 15, 16, 19, 20}}});
  // drop_remainder drops the partial batches of the end.
  auto dropped = ragged_rows().bucket_by_sequence_length(
      length, {4, 7}, {2, 2, 2}, {.padding_values = Nest<double>(-1.0), .pad_to_bucket_boundary = true, .drop_remainder = true});
  CHECK(batches(dropped).size() == 2);
}

TEST_CASE("bucket_by_sequence_length: no_padding, and errors name the fix", "[data][grouping]") {
  auto pairs = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}));
  auto ds = pairs.bucket_by_sequence_length([](const Element& e) { return scalar(Element(e.leaf().row(0))); }, {4}, {2, 3},
                                            {.no_padding = true});
  CHECK(batches(ds) == std::vector<V>{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
  CHECK_THROWS_WITH(ragged_rows().bucket_by_sequence_length(length, {3, 5}, {2, 2}),
                    Catch::Contains("len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1"));
  CHECK_THROWS_WITH(ragged_rows().bucket_by_sequence_length(length, {5, 3}, {2, 2, 2}), Catch::Contains("strictly increasing"));
  auto too_long = ragged_rows().bucket_by_sequence_length(length, {3, 5}, {2, 2, 2}, {.pad_to_bucket_boundary = true});
  CHECK_THROWS_WITH(batches(too_long), Catch::Contains("shorter than the last bucket boundary (5)"));
}
