// Callbacks on a cluster: only the chief writes files; EarlyStopping decides on aggregated logs, so all
// replicas stop at the same epoch; BackupAndRestore resumes every rank from the chief's backup.
#include <filesystem>

#include <catch2/catch.hpp>

#include "replica_helpers.hpp"

using namespace keras_test;
namespace fs = std::filesystem;

TEST_CASE("only the chief writes CSVLogger and ModelCheckpoint files") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  const std::string dir = shared_temp_dir("distribute_callbacks");
  const std::string mine = dir + "/rank" + std::to_string(strategy.replica_id());
  auto model = small_cnn(31);
  compile_adam(model);
  const Data d = labelled_images(64, 4);
  model.fit(d.x, d.y, {.batch_size = 16, .epochs = 2, .verbose = 0,
                       .callbacks = {k::callbacks::CSVLogger(mine + ".csv"), k::callbacks::ModelCheckpoint(mine + ".h5")}});
  CHECK(fs::exists(mine + ".csv") == strategy.is_chief());
  CHECK(fs::exists(mine + ".h5") == strategy.is_chief());
  MPI_Barrier(MPI_COMM_WORLD);
  if (strategy.is_chief()) fs::remove_all(dir);
}

TEST_CASE("EarlyStopping stops every replica at the same epoch") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  auto model = small_cnn(32);
  compile_adam(model, 0.3);  // too high: the loss soon stops improving
  const Data d = labelled_images(96, 5);
  auto history = model.fit(d.x, d.y, {.batch_size = 16, .epochs = 30, .verbose = 0,
                                      .callbacks = {k::callbacks::EarlyStopping({.monitor = "loss", .patience = 1})}});
  const auto epochs = static_cast<float>(history.epoch.size());
  CHECK(epochs < 30);
  CHECK(max_diff_from_chief({epochs}) == 0.0);
}

TEST_CASE("BackupAndRestore: a run interrupted on every rank resumes from the chief's backup") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  const std::string dir = shared_temp_dir("distribute_backup");
  const Data d = labelled_images(128, 6);
  auto train = [&](std::int64_t interrupt_at) {
    auto model = small_cnn(33);
    compile_adam(model);
    std::int64_t seen = 0;
    model.fit(d.x, d.y, {.batch_size = 16, .epochs = 3, .verbose = 0,
                         .callbacks = {k::callbacks::BackupAndRestore(dir + "/backup"),
                                       k::callbacks::LambdaCallback({.on_batch_end = [&](std::int64_t, k::Logs&) {
                                         if (++seen == interrupt_at) throw std::runtime_error("interrupted");
                                       }})}});
    return flat_weights(model);
  };
  const auto uninterrupted = train(-1);
  CHECK_THROWS_WITH(train(12), "interrupted");  // in the second epoch, after the first epoch's backup
  MPI_Barrier(MPI_COMM_WORLD);
  REQUIRE(fs::exists(dir + "/backup/backup.h5"));
  const auto resumed = train(-1);
  CHECK(max_abs_diff(resumed, uninterrupted) < 1e-6);
  CHECK(max_diff_from_chief(resumed) == 0.0);
  MPI_Barrier(MPI_COMM_WORLD);
  if (strategy.is_chief()) fs::remove_all(dir);
}
