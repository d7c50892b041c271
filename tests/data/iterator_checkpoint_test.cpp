// Iterator checkpoints (save/restore of the position) through prefetch, parallel map, interleave and
// cache: resuming from a saved state yields exactly what the original iterator yields after it.
#include <filesystem>
#include <random>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;

namespace {
std::vector<std::int64_t> rest(Iterator& it) {
  std::vector<std::int64_t> out;
  while (auto e = it.get_next_as_optional()) out.push_back(scalar(*e));
  return out;
}

// Reads `before` elements, saves (through CBOR, as a checkpoint file would hold it), and checks that a
// fresh iterator restored from the state yields what the original yields afterwards.
void check_resume(const Dataset& ds, int before, const std::vector<std::int64_t>& expected_all) {
  auto it = ds.make_iterator();
  std::vector<std::int64_t> head;
  for (int i = 0; i < before; ++i) head.push_back(scalar(it.get_next()));
  const auto bytes = json::to_cbor(it.save());
  const auto tail = rest(it);
  auto resumed = ds.make_iterator();
  resumed.restore(json::from_cbor(bytes));
  CHECK(rest(resumed) == tail);
  head.insert(head.end(), tail.begin(), tail.end());
  CHECK(head == expected_all);
}

Element twice(const Element& e) { return Element(Tensor::full({}, static_cast<double>(2 * scalar(e)), DType::int64)); }
}  // namespace

TEST_CASE("iterator checkpoint through prefetch", "[data][checkpoint]") {
  for (int before : {0, 1, 7, 20}) {
    INFO("after " << before);
    check_resume(Dataset::range(20).prefetch(3), before, iota(0, 20));
    check_resume(Dataset::range(20).map(twice).prefetch(AUTOTUNE).batch(1).unbatch(), before, iota(0, 40, 2));
  }
}

TEST_CASE("iterator checkpoint through a parallel map, ordered or not", "[data][checkpoint]") {
  for (int before : {0, 3, 11, 30}) {
    INFO("after " << before);
    check_resume(Dataset::range(30).map(twice, {.num_parallel_calls = 3}), before, iota(0, 60, 2));
    check_resume(Dataset::range(30).batch(4, {.num_parallel_calls = 2}).unbatch(), before, iota(0, 30));
  }
  // Unordered: the resumed elements and the ones before the save are each element once.
  auto ds = Dataset::range(50).map(twice, {.num_parallel_calls = 2, .deterministic = false});
  auto it = ds.make_iterator();
  std::vector<std::int64_t> seen;
  for (int i = 0; i < 10; ++i) seen.push_back(scalar(it.get_next()));
  const json state = it.save();
  auto resumed = ds.make_iterator();
  resumed.restore(state);
  for (auto v : rest(resumed)) seen.push_back(v);
  std::sort(seen.begin(), seen.end());
  CHECK(seen == iota(0, 100, 2));
}

TEST_CASE("iterator checkpoint through interleave and flat_map, sequential and parallel", "[data][checkpoint]") {
  auto rep = [](const Element& e) { return Dataset::from_tensors(e).repeat(scalar(e) % 4 + 1); };
  std::vector<std::int64_t> flat;
  for (std::int64_t i = 0; i < 9; ++i)
    for (std::int64_t k = 0; k < i % 4 + 1; ++k) flat.push_back(i);
  const auto interleaved = scalars(Dataset::range(9).interleave(rep, {.cycle_length = 3, .block_length = 2}));
  for (int before : {0, 1, 5, 12}) {
    INFO("after " << before);
    check_resume(Dataset::range(9).flat_map(rep), before, flat);
    check_resume(Dataset::range(9).interleave(rep, {.cycle_length = 3, .block_length = 2}), before, interleaved);
    check_resume(Dataset::range(9).interleave(rep, {.cycle_length = 3, .block_length = 2, .num_parallel_calls = 3}), before,
                 interleaved);
  }
}

TEST_CASE("iterator checkpoint through cache, in memory and in a file, filling and reading", "[data][checkpoint]") {
  auto mem = Dataset::range(12).map(twice).cache();
  check_resume(mem, 5, iota(0, 24, 2));  // while filling
  check_resume(mem, 0, iota(0, 24, 2));
  check_resume(mem, 7, iota(0, 24, 2));  // reading the filled cache
  std::filesystem::remove("ckpt.cache");
  std::filesystem::remove("ckpt.cache.tmp");
  auto file = Dataset::range(12).map(twice).cache("ckpt.cache");
  {
    // While the file is written: resumed in a fresh iterator (as after a crash), the file is completed.
    auto it = file.make_iterator();
    for (int i = 0; i < 4; ++i) it.get_next();
    const auto bytes = json::to_cbor(it.save());
    auto resumed = file.make_iterator();
    resumed.restore(json::from_cbor(bytes));
    CHECK(rest(resumed) == iota(8, 24, 2));
  }
  CHECK(std::filesystem::exists("ckpt.cache"));
  CHECK(scalars(file) == iota(0, 24, 2));  // read back whole from the file
  check_resume(file, 6, iota(0, 24, 2));   // reading the file
  std::filesystem::remove("ckpt.cache");
}

TEST_CASE("iterator checkpoint through group_by_window, bucket_by_sequence_length and rejection_resample", "[data][checkpoint]") {
  auto key = [](const Element& e) { return scalar(e) % 3; };
  auto grouped = Dataset::range(20).group_by_window(key, [](std::int64_t, const Dataset& w) { return w.map(twice); }, 4);
  const auto all = scalars(grouped);
  for (int before : {0, 2, 9, 19}) {
    INFO("after " << before);
    check_resume(grouped, before, all);
  }
  std::mt19937_64 rng(1);
  std::vector<std::int64_t> classes;
  for (int i = 0; i < 200; ++i) classes.push_back(std::uniform_int_distribution<int>(0, 2)(rng));
  auto resampled = Dataset::from_tensor_slices(Tensor::from_vector<std::int64_t>(classes))
                       .rejection_resample([](const Element& e) { return scalar(e); }, {0.6, 0.2, 0.2}, {.seed = 4})
                       .map([](const Element& e) { return e[1]; });
  const auto drawn = scalars(resampled);
  CHECK(scalars(resampled) == drawn);  // a seed repeats the draw
  check_resume(resampled, 15, drawn);
}
