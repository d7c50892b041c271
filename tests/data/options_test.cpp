// Dataset::with_options / options(): tf.data.Options' determinism and threading settings.
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include <omp.h>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;

TEST_CASE("options: tf's example sets deterministic = false and reads it back", "[data][options]") {
  Options options;
  options.deterministic = false;
  auto ds = Dataset::range(5).with_options(options);
  CHECK(ds.options().deterministic == false);
  // Options reach through later transformations and merge, later ones winning.
  auto mapped = ds.map([](const Element& e) { return e; }).batch(2);
  CHECK(mapped.options().deterministic == false);
  Options threads;
  threads.threading.private_threadpool_size = 3;
  auto both = mapped.with_options(threads);
  CHECK(both.options().deterministic == false);
  CHECK(both.options().threading.private_threadpool_size == 3);
  Options again;
  again.deterministic = true;
  CHECK(both.with_options(again).options().deterministic == true);
  CHECK(Dataset::range(3).options() == Options{});
  CHECK(Dataset::zip({ds, Dataset::range(2).with_options(threads)}).options().threading.private_threadpool_size == 3);
  Options bad;
  bad.threading.max_intra_op_parallelism = 0;
  CHECK_THROWS_WITH(Dataset::range(1).with_options(bad), Catch::Contains("max_intra_op_parallelism must be >= 1"));
}

TEST_CASE("options: deterministic = false lets a parallel map yield out of order", "[data][options]") {
  // Element 0 is slow; with order kept it still comes first, without it a faster one does.
  auto slow_first = [](const Element& e) {
    if (scalar(e) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return e;
  };
  auto base = Dataset::range(6).map(slow_first, {.num_parallel_calls = 2});
  CHECK(scalar(base.make_iterator().get_next()) == 0);
  Options o;
  o.deterministic = false;
  auto unordered = base.with_options(o);
  CHECK(scalar(unordered.make_iterator().get_next()) != 0);
  auto sorted = scalars(unordered);
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == iota(0, 6));
  // The map's own argument wins over the options.
  auto own = Dataset::range(6).map(slow_first, {.num_parallel_calls = 2, .deterministic = true}).with_options(o);
  CHECK(scalar(own.make_iterator().get_next()) == 0);
}

TEST_CASE("options: private_threadpool_size caps map threads, max_intra_op_parallelism sets their OpenMP threads", "[data][options]") {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::set<int> omp_threads;
  auto record = [&](const Element& e) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard lock(mu);
    ids.insert(std::this_thread::get_id());
    omp_threads.insert(omp_get_max_threads());
    return e;
  };
  auto ds = Dataset::range(40).map(record, {.num_parallel_calls = 4});
  CHECK(scalars(ds).size() == 40);
  CHECK(ids.size() > 1);
  CHECK(omp_threads == std::set<int>{1});
  ids.clear();
  omp_threads.clear();
  Options o;
  o.threading.private_threadpool_size = 1;
  o.threading.max_intra_op_parallelism = 2;
  CHECK(scalars(ds.with_options(o)) == iota(0, 40));
  CHECK(ids.size() == 1);
  CHECK(omp_threads == std::set<int>{2});
}
