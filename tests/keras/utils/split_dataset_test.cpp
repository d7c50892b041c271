// keras::utils::split_dataset: Keras's docstring example, arrays and Datasets, the shuffle, batched
// datasets, and Keras's size errors.
#include <numeric>
#include <set>

#include <catch2/catch.hpp>

#include "golden.hpp"

using namespace keras;
using utils::split_dataset;

namespace {

std::vector<float> firsts(const data::Dataset& ds) {
  std::vector<float> out;
  for (const data::Element& e : ds) {
    const Tensor x = (e.is_leaf() ? e : e[0]).leaf().tensor();
    out.push_back(x.astype(DType::float32).to_vector<float>()[0]);
  }
  return out;
}

Tensor rows(std::int64_t n, std::int64_t width) {
  std::vector<float> v(static_cast<std::size_t>(n * width));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i / static_cast<std::size_t>(width));
  return Tensor::from_vector(v, {n, width});
}

}  // namespace

TEST_CASE("split_dataset reproduces Keras's docstring example (1000 rows, left_size 0.8)", "[utils]") {
  const auto [left, right] = split_dataset(rows(1000, 4), {.left_size = 0.8});
  CHECK(left.cardinality() == 800);
  CHECK(right.cardinality() == 200);
  const auto l = firsts(left), r = firsts(right);
  CHECK(l.front() == 0);
  CHECK(l.back() == 799);
  CHECK(r.front() == 800);
  CHECK(r.back() == 999);
}

TEST_CASE("split_dataset: integer sizes, tuples of arrays, Datasets and the shuffle", "[utils]") {
  const Tensor x = rows(10, 3);
  const Tensor y = Tensor::from_vector<std::int32_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto [l, r] = split_dataset(data::tuple({x, y}), {.left_size = 3, .right_size = 5});
  CHECK(firsts(l) == std::vector<float>{0, 1, 2});
  CHECK(firsts(r) == std::vector<float>{5, 6, 7, 8, 9});
  for (const data::Element& e : r) CHECK(e[1].leaf().tensor().item() == e[0].leaf().tensor().to_vector<float>()[0]);

  const auto ds = data::Dataset::range(10);
  const auto [dl, dr] = split_dataset(ds, {.right_size = 0.25});  // round(2.5) = 2, as Python rounds halves to even
  CHECK(dl.cardinality() == 8);
  CHECK(dr.cardinality() == 2);

  const auto [sl, sr] = split_dataset(ds, {.left_size = 6, .shuffle = true, .seed = 3});
  const auto [sl2, sr2] = split_dataset(ds, {.left_size = 6, .shuffle = true, .seed = 3});
  const auto a = firsts(sl), b = firsts(sr);
  CHECK(a == firsts(sl2));
  std::set<float> all(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  CHECK(all.size() == 10);
  CHECK(a != std::vector<float>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("split_dataset splits a batched Dataset by samples and batches both sides again", "[utils]") {
  const auto batched = data::Dataset::from_tensor_slices(rows(10, 2)).batch(4);
  const auto [l, r] = split_dataset(batched, {.left_size = 0.5, .batch_size = 4});
  std::vector<std::int64_t> sizes;
  for (const data::Element& e : l) sizes.push_back(e.leaf().tensor().dim(0));
  CHECK(sizes == std::vector<std::int64_t>{4, 1});
  std::vector<float> right;
  for (const data::Element& e : r)
    for (std::int64_t i = 0; i < e.leaf().tensor().dim(0); ++i) right.push_back(e.leaf().tensor().to_vector<float>()[2 * i]);
  CHECK(right == std::vector<float>{5, 6, 7, 8, 9});
}

TEST_CASE("split_dataset refuses Keras's bad sizes", "[utils]") {
  const Tensor x = rows(10, 1);
  CHECK_THROWS_WITH(split_dataset(x, {}), Catch::Contains("at least one of left_size or right_size"));
  CHECK_THROWS_WITH(split_dataset(x, {.left_size = 6, .right_size = 5}), Catch::Contains("is more than the 10 samples"));
  CHECK_THROWS_WITH(split_dataset(x, {.left_size = 0.7, .right_size = 0.6}), Catch::Contains("greater than 1"));
  CHECK_THROWS_WITH(split_dataset(x, {.left_size = 10}), Catch::Contains("left_size should be"));
  CHECK_THROWS_WITH(split_dataset(x, {.right_size = 1.0}), Catch::Contains("right_size should be"));
  CHECK_THROWS_WITH(split_dataset(x, {.left_size = 0, .right_size = 0}), Catch::Contains("both left_size and right_size are zero"));
  CHECK_THROWS_WITH(split_dataset(x, {.left_size = 0.01}), Catch::Contains("leave the left split empty"));
  CHECK_THROWS_WITH(split_dataset(data::Dataset::range(3).repeat(), {.left_size = 1}), Catch::Contains("infinite"));
}
