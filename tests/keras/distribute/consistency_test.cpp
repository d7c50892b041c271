// A rank that builds another model or compiles another optimizer than the chief is refused before the
// first step, on every rank at once (none is left waiting), with a message naming it.
#include <catch2/catch.hpp>

#include "replica_helpers.hpp"

using namespace keras_test;

TEST_CASE("a model that differs on one rank is refused at the start, naming the rank") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  const int last = strategy.num_replicas_in_sync() - 1;
  auto model = small_cnn(21, strategy.replica_id() == last && last > 0 ? 9 : 8);
  compile_adam(model);
  const Data d = labelled_images(64, 1);
  if (last == 0) return;  // one rank: nothing can differ
  CHECK_THROWS_WITH(model.fit(d.x, d.y, {.batch_size = 16, .verbose = 0}),
                    Catch::Contains("rank(s) " + std::to_string(last) + " built a different model or optimizer"));
}

TEST_CASE("an optimizer setting that differs on one rank is refused, with the difference") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  auto model = small_cnn(22);
  compile_adam(model, strategy.replica_id() == 1 ? 0.5 : 1e-2);
  const Data d = labelled_images(64, 2);
  if (strategy.num_replicas_in_sync() == 1) return;
  CHECK_THROWS_WITH(model.fit(d.x, d.y, {.batch_size = 16, .verbose = 0}), Catch::Contains("rank(s) 1 built"));
  if (strategy.replica_id() == 1)
    CHECK_THROWS_WITH(model.fit(d.x, d.y, {.batch_size = 16, .verbose = 0}), Catch::Contains("learning_rate"));
  else
    CHECK_THROWS(model.fit(d.x, d.y, {.batch_size = 16, .verbose = 0}));
}

TEST_CASE("identical models start from the chief's weights") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  auto model = small_cnn(100 + static_cast<std::uint64_t>(strategy.replica_id()));  // different initial weights
  const auto before = flat_weights(model);
  if (strategy.num_replicas_in_sync() > 1) REQUIRE(max_diff_from_chief(before) > 0.0);
  compile_adam(model, 0.0);  // no update: the weights after the step are the ones each replica started from
  const Data d = labelled_images(32, 3);
  model.fit(d.x, d.y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  CHECK(max_diff_from_chief(flat_weights(model)) == 0.0);
}

TEST_CASE("new weights in the same model start from the chief's too") {
  // The model, its optimizer and its number of weights stay the same: only new layer objects tell that the
  // weights are new (a new model or optimizer may also be made where a destroyed one was).
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  auto model = small_cnn(7);
  compile_adam(model, 0.0);
  const Data d = labelled_images(32, 3);
  model.fit(d.x, d.y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  model.pop();
  k::utils::set_random_seed(200 + static_cast<std::uint64_t>(strategy.replica_id()));  // a different head per rank
  model.add(k::layers::Dense(3));
  if (strategy.num_replicas_in_sync() > 1) REQUIRE(max_diff_from_chief(flat_weights(model)) > 0.0);
  model.fit(d.x, d.y, {.batch_size = 32, .epochs = 1, .verbose = 0});
  CHECK(max_diff_from_chief(flat_weights(model)) == 0.0);
}

TEST_CASE("MirroredStrategy runs when every rank is on this host, and is refused otherwise") {
  k::distribute::mpi::world();  // initializes MPI, when this test runs first
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int local_size = 0, size = 0;
  MPI_Comm_size(local, &local_size);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_free(&local);
  if (local_size == size) {
    k::distribute::MirroredStrategy strategy({.threads = 1});
    CHECK(strategy.num_replicas_in_sync() == size);
  } else {  // scripts/multihost_netns.sh: one rank per "host"
    CHECK_THROWS_WITH(k::distribute::MirroredStrategy({.threads = 1}), Catch::Contains("use MultiWorkerMirroredStrategy"));
  }
}

TEST_CASE("bad strategy options are refused with the rank and the fix") {
  CHECK_THROWS_WITH(k::distribute::MultiWorkerMirroredStrategy({.bucket_bytes = 0}),
                    Catch::Contains("rank " + std::to_string(mpi_rank()) + ": StrategyOptions::bucket_bytes must be positive"));
  CHECK_THROWS_WITH(k::distribute::MultiWorkerMirroredStrategy({.threads = -1}),
                    Catch::Contains("StrategyOptions::threads must be >= 0"));
}
