// Each transformation against the behaviour tf.data documents for it.
#include <algorithm>
#include <numeric>
#include <filesystem>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;
using V = std::vector<std::vector<std::int64_t>>;

namespace {
Element times(const Element& e, std::int64_t k) {
  return Element(Tensor::full({}, scalar(e) * k, DType::int64));
}
}  // namespace

TEST_CASE("map sequential and parallel keeps order, deterministic=false keeps the set", "[data]") {
  auto f = [](const Element& e) { return times(e, 2); };
  CHECK(scalars(Dataset::range(5).map(f)) == std::vector<std::int64_t>{0, 2, 4, 6, 8});
  auto par = Dataset::range(200).map(f, {.num_parallel_calls = 3});
  CHECK(scalars(par) == iota(0, 400, 2));
  CHECK(scalars(Dataset::range(200).map(f, {.num_parallel_calls = AUTOTUNE})) == iota(0, 400, 2));
  auto any = scalars(Dataset::range(200).map(f, {.num_parallel_calls = 2, .deterministic = false}));
  std::sort(any.begin(), any.end());
  CHECK(any == iota(0, 400, 2));
  CHECK(par.cardinality() == 200);
}

TEST_CASE("an exception in a parallel map function reaches the consumer", "[data]") {
  auto ds = Dataset::range(10).map([](const Element& e) -> Element {
    if (scalar(e) == 4) throw ValueError("bad element 4");
    return e;
  }, {.num_parallel_calls = 2});
  auto it = ds.make_iterator();
  for (int i = 0; i < 4; ++i) CHECK(scalar(it.get_next()) == i);
  CHECK_THROWS_WITH(it.get_next(), "bad element 4");
}

TEST_CASE("filter, flat_map and interleave", "[data]") {
  auto even = Dataset::range(10).filter([](const Element& e) { return scalar(e) % 2 == 0; });
  CHECK(scalars(even) == iota(0, 10, 2));
  CHECK(even.cardinality() == UNKNOWN_CARDINALITY);

  // range(1, 4).flat_map(x -> from_tensors(x).repeat(x)) = 1 2 2 3 3 3
  auto rep = [](const Element& e) { return Dataset::from_tensors(e).repeat(scalar(e)); };
  CHECK(scalars(Dataset::range(1, 4).flat_map(rep)) == std::vector<std::int64_t>{1, 2, 2, 3, 3, 3});

  // tf's documented example: range(1, 6).interleave(x -> from_tensors(x).repeat(6), cycle_length=2, block_length=4)
  auto six = [](const Element& e) { return Dataset::from_tensors(e).repeat(6); };
  CHECK(scalars(Dataset::range(1, 6).interleave(six, {.cycle_length = 2, .block_length = 4})) ==
        std::vector<std::int64_t>{1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 3, 3, 4, 4, 5, 5, 5, 5, 5, 5});
}

TEST_CASE("parallel interleave reads ahead on threads and keeps the sequential order", "[data]") {
  auto six = [](const Element& e) { return Dataset::from_tensors(e).repeat(6); };
  for (std::int64_t calls : {std::int64_t{2}, AUTOTUNE}) {
    INFO("num_parallel_calls " << calls);
    CHECK(scalars(Dataset::range(1, 6).interleave(six, {.cycle_length = 2, .block_length = 4, .num_parallel_calls = calls})) ==
          scalars(Dataset::range(1, 6).interleave(six, {.cycle_length = 2, .block_length = 4})));
  }
  // The inner datasets really are read on other threads.
  const auto caller = std::this_thread::get_id();
  auto where = [caller](const Element& e) {
    return Dataset::from_tensors(e).repeat(3).map([caller](const Element& x) {
      return Element(Tensor::full({}, std::this_thread::get_id() == caller ? 1.0 : 0.0, DType::int64));
    });
  };
  auto on_caller = scalars(Dataset::range(4).interleave(where, {.cycle_length = 2, .num_parallel_calls = 2}));
  CHECK(on_caller == std::vector<std::int64_t>(12, 0));
  CHECK(scalars(Dataset::range(4).interleave(where, {.cycle_length = 2})) == std::vector<std::int64_t>(12, 1));
  CHECK_THROWS_WITH(Dataset::range(4).interleave(six, {.num_parallel_calls = -5}), Catch::Contains("interleave: num_parallel_calls"));
}

TEST_CASE("shuffle: buffer 1 is the identity, a permutation, seeds, reshuffle_each_iteration", "[data]") {
  CHECK(scalars(Dataset::range(20).shuffle(1)) == iota(0, 20));
  auto ds = Dataset::range(100).shuffle(100, {.seed = 7});
  auto a = scalars(ds), b = scalars(ds);
  CHECK(a != iota(0, 100));
  CHECK(a != b);  // reshuffled on the second pass
  auto sa = a;
  std::sort(sa.begin(), sa.end());
  CHECK(sa == iota(0, 100));
  CHECK(scalars(Dataset::range(100).shuffle(100, {.seed = 7})) == a);  // same seed, same first pass
  auto fixed = Dataset::range(50).shuffle(50, {.seed = 3, .reshuffle_each_iteration = false});
  CHECK(scalars(fixed) == scalars(fixed));
  // A buffer of 10: the first output is one of the first 10 elements (tf's buffer algorithm).
  for (std::uint64_t s = 0; s < 20; ++s) CHECK(scalars(Dataset::range(100).shuffle(10, {.seed = s}))[0] < 10);
}

TEST_CASE("batch, drop_remainder, and repeat then batch crosses epochs", "[data]") {
  CHECK(values(Dataset::range(8).batch(3)) == V{{0, 1, 2}, {3, 4, 5}, {6, 7}});
  CHECK(values(Dataset::range(8).batch(3, {.drop_remainder = true})) == V{{0, 1, 2}, {3, 4, 5}});
  CHECK(Dataset::range(8).batch(3).cardinality() == 3);
  CHECK(Dataset::range(8).batch(3, {.drop_remainder = true}).cardinality() == 2);
  CHECK(spec_str(Dataset::range(8).batch(3).element_spec()) == "TensorSpec(shape=(None,), dtype=int64)");
  CHECK(values(Dataset::range(3).repeat(2).batch(4)) == V{{0, 1, 2, 0}, {1, 2}});
  CHECK(values(Dataset::range(3).batch(2).repeat(2)) == V{{0, 1}, {2}, {0, 1}, {2}});
  CHECK_THROWS_WITH(Dataset::range(1, 4).flat_map([](const Element& e) {
                      return Dataset::from_tensors(Tensor::zeros({scalar(e)}));
                    }).batch(2).make_iterator().get_next(),
                    Catch::Contains("padded_batch"));
}

TEST_CASE("parallel batch equals sequential batch - deterministic=false keeps the set", "[data]") {
  auto pairs = Dataset::zip({Dataset::range(103), Dataset::range(103).map([](const Element& e) { return times(e, 3); })});
  for (bool drop : {false, true}) {
    INFO("drop_remainder " << drop);
    auto seq = pairs.batch(8, {.drop_remainder = drop});
    auto par = pairs.batch(8, {.drop_remainder = drop, .num_parallel_calls = 3});
    CHECK(par.cardinality() == seq.cardinality());
    CHECK(spec_str(par.element_spec()) == spec_str(seq.element_spec()));
    std::vector<Element> a, b;
    for (const Element& e : seq) a.push_back(e);
    for (const Element& e : par) b.push_back(e);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      for (int k = 0; k < 2; ++k) CHECK(a[i][k].leaf().tensor().to_vector<std::int64_t>() == b[i][k].leaf().tensor().to_vector<std::int64_t>());
  }
  auto any = values(Dataset::range(40).batch(4, {.num_parallel_calls = AUTOTUNE, .deterministic = false}));
  std::sort(any.begin(), any.end());
  CHECK(any == values(Dataset::range(40).batch(4)));
  CHECK_THROWS_WITH(Dataset::range(4).batch(2, {.num_parallel_calls = -3}), Catch::Contains("batch: num_parallel_calls"));
}

TEST_CASE("padded_batch of range(x) fills with the padding value", "[data]") {
  // tf's example: range(1, 5).map(x -> fill([x], x)).padded_batch(2) = [[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]]
  auto fill = [](const Element& e) { return Element(Tensor::full({scalar(e)}, double(scalar(e)), DType::int64)); };
  auto ds = Dataset::range(1, 5).map(fill);
  auto it = ds.padded_batch(2).make_iterator();
  Element b0 = it.get_next(), b1 = it.get_next();
  CHECK(b0.leaf().shape() == Shape{2, 2});
  CHECK(b0.leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 0, 2, 2});
  CHECK(b1.leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{3, 3, 3, 0, 4, 4, 4, 4});
  Element c = ds.padded_batch(2, {.padded_shapes = Nest<Shape>(Shape{5}), .padding_values = Nest<double>(-1.0)})
                  .make_iterator().get_next();
  CHECK(c.leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{1, -1, -1, -1, -1, 2, 2, -1, -1, -1});
  CHECK_THROWS_WITH(ds.padded_batch(4, {.padded_shapes = Nest<Shape>(Shape{2})}).make_iterator().get_next(),
                    Catch::Contains("larger than the padded shape"));
}

TEST_CASE("unbatch undoes batch", "[data]") {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  auto ds = Dataset::from_tensors(tuple({x, Tensor::from_vector<std::int32_t>({7, 8, 9})})).unbatch();
  std::vector<std::int64_t> ys;
  for (const Element& e : ds) ys.push_back(scalar(e[1]));
  CHECK(ys == std::vector<std::int64_t>{7, 8, 9});
  CHECK(scalars(Dataset::range(7).batch(3).unbatch()) == iota(0, 7));
}

TEST_CASE("repeat, take, skip and their cardinalities", "[data]") {
  CHECK(scalars(Dataset::range(3).repeat(3)) == std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 0, 1, 2});
  CHECK(Dataset::range(3).repeat().cardinality() == INFINITE_CARDINALITY);
  CHECK(scalars(Dataset::range(3).repeat().take(7)) == std::vector<std::int64_t>{0, 1, 2, 0, 1, 2, 0});
  CHECK(Dataset::range(3).repeat().take(7).cardinality() == 7);
  CHECK(scalars(Dataset::range(10).skip(7)) == std::vector<std::int64_t>{7, 8, 9});
  CHECK(Dataset::range(10).skip(12).cardinality() == 0);
  CHECK(scalars(Dataset::range(10).skip(-1)).empty());
  CHECK(scalars(Dataset::range(10).take(-1)) == iota(0, 10));
  CHECK(scalars(Dataset::range(0).repeat()).empty());  // an empty dataset repeated stays empty
  CHECK(Dataset::range(3).filter([](const Element&) { return true; }).repeat().cardinality() == INFINITE_CARDINALITY);
  CHECK(Dataset::range(3).filter([](const Element&) { return true; }).repeat(2).cardinality() == UNKNOWN_CARDINALITY);
}

TEST_CASE("shard then take, zip, concatenate, enumerate", "[data]") {
  CHECK(scalars(Dataset::range(10).shard(3, 1)) == std::vector<std::int64_t>{1, 4, 7});
  CHECK(Dataset::range(10).shard(3, 1).cardinality() == 3);
  CHECK(scalars(Dataset::range(10).shard(3, 0).take(2)) == std::vector<std::int64_t>{0, 3});
  CHECK_THROWS_AS(Dataset::range(10).shard(3, 3), ValueError);

  auto z = Dataset::zip({Dataset::range(1, 4), Dataset::range(4, 9)});
  CHECK(z.cardinality() == 3);
  std::vector<std::int64_t> sums;
  for (const Element& e : z) sums.push_back(scalar(e[0]) + scalar(e[1]));
  CHECK(sums == std::vector<std::int64_t>{5, 7, 9});

  auto c = Dataset::range(1, 4).concatenate(Dataset::range(4, 8));
  CHECK(scalars(c) == iota(1, 8));
  CHECK(c.cardinality() == 7);

  std::vector<std::int64_t> idx;
  for (const Element& e : Dataset::range(10, 13).enumerate(5)) idx.push_back(scalar(e[0]) * 100 + scalar(e[1]));
  CHECK(idx == std::vector<std::int64_t>{510, 611, 712});
}

TEST_CASE("window(5, shift=2) on range(100), stride and drop_remainder", "[data]") {
  auto w = values(Dataset::range(100).window(5, {.shift = 2}));
  REQUIRE(w.size() == 50);
  CHECK(w[0] == std::vector<std::int64_t>{0, 1, 2, 3, 4});
  CHECK(w[1] == std::vector<std::int64_t>{2, 3, 4, 5, 6});
  CHECK(w[48] == std::vector<std::int64_t>{96, 97, 98, 99});
  CHECK(w[49] == std::vector<std::int64_t>{98, 99});
  CHECK(Dataset::range(100).window(5, {.shift = 2}).cardinality() == 50);
  auto d = Dataset::range(100).window(5, {.shift = 2, .drop_remainder = true});
  CHECK(values(d).size() == 48);
  CHECK(d.cardinality() == 48);
  // tf's examples: range(7).window(3, 1, 2, True) and range(7).window(3)
  CHECK(values(Dataset::range(7).window(3, {.shift = 1, .stride = 2, .drop_remainder = true})) == V{{0, 2, 4}, {1, 3, 5}, {2, 4, 6}});
  CHECK(values(Dataset::range(7).window(3)) == V{{0, 1, 2}, {3, 4, 5}, {6}});
}

TEST_CASE("reduce and apply", "[data]") {
  Element sum = Dataset::range(5).reduce(Element(Tensor::full({}, 0, DType::int64)), [](const Element& s, const Element& e) {
    return Element(Tensor::full({}, double(scalar(s) + scalar(e)), DType::int64));
  });
  CHECK(scalar(sum) == 10);
  auto ds = Dataset::range(10).apply([](const Dataset& d) { return d.filter([](const Element& e) { return scalar(e) < 3; }); });
  CHECK(scalars(ds) == iota(0, 3));
  CHECK_THROWS_AS(Dataset::range(2).repeat().reduce(sum, [](const Element& s, const Element&) { return s; }), ValueError);
}

TEST_CASE("prefetch yields everything in order, cache in memory and in a file", "[data]") {
  CHECK(scalars(Dataset::range(1000).prefetch(AUTOTUNE)) == iota(0, 1000));
  CHECK(scalars(Dataset::range(5).map([](const Element& e) { return times(e, 3); }).prefetch(2).batch(2).unbatch()) ==
        iota(0, 15, 3));
  {  // an early-destroyed prefetching iterator joins its thread
    auto it = Dataset::range(1000000).prefetch(8).make_iterator();
    CHECK(scalar(it.get_next()) == 0);
  }
  int calls = 0;
  auto counted = Dataset::range(4).map([&calls](const Element& e) { ++calls; return e; });
  auto mem = counted.cache();
  CHECK(scalars(mem) == iota(0, 4));
  CHECK(scalars(mem) == iota(0, 4));
  CHECK(calls == 4);

  const std::string file = "data_cache_test.bin";
  std::filesystem::remove(file);
  calls = 0;
  auto on_disk = counted.map([](const Element& e) { return tuple({e, Element(Component("s"))}); }).cache(file);
  CHECK(scalars(on_disk.map([](const Element& e) { return e[0]; })) == iota(0, 4));
  CHECK(std::filesystem::exists(file));
  auto again = Dataset::range(4).map([](const Element& e) { return tuple({e, Element(Component("s"))}); }).cache(file);
  std::vector<std::string> strs;
  for (const Element& e : again) strs.push_back(e[1].leaf().str());
  CHECK(strs == std::vector<std::string>(4, "s"));
  CHECK(calls == 4);
  std::filesystem::remove(file);
}

TEST_CASE("iterator state save and restore resumes the same sequence", "[data]") {
  auto ds = Dataset::range(50)
                .map([](const Element& e) { return times(e, 2); })
                .shuffle(10, {.seed = 1})
                .repeat(2)
                .skip(3)
                .take(60)
                .batch(4);
  auto it = ds.make_iterator();
  for (int i = 0; i < 7; ++i) it.get_next();
  const json state = it.save();
  std::vector<std::vector<std::int64_t>> rest, resumed;
  while (auto e = it.get_next_as_optional()) rest.push_back(e->leaf().tensor().to_vector<std::int64_t>());
  auto again = ds.make_iterator();
  again.restore(state);
  while (auto e = again.get_next_as_optional()) resumed.push_back(e->leaf().tensor().to_vector<std::int64_t>());
  CHECK(rest.size() == 8);
  CHECK(resumed == rest);
  auto generated = Dataset::from_generator([] { return Generator([]() -> std::optional<Element> { return std::nullopt; }); },
                                          ElementSpec(TensorSpec{{}, "int64"}));
  CHECK_THROWS_WITH(generated.make_iterator().save(), Catch::Contains("from_generator"));
}
