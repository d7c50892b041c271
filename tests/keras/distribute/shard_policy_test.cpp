// AutoShardPolicy (data/auto_shard.hpp): a pipeline that reads a list of files is split by file among the
// replicas (AUTO with at least one file per replica), each training on batches from its own files; with
// fewer files it is split by data, as one process would train.
#include <catch2/catch.hpp>

#include <fstream>

#include "replica_helpers.hpp"

using namespace keras_test;

namespace {

// `count` CSV files "a,b,c,label" in a folder all ranks see; file f has rows_of(f) rows.
std::vector<std::string> write_csv_files(const std::string& name, int count, const std::function<int(int)>& rows_of) {
  const std::string dir = shared_temp_dir(name);
  std::vector<std::string> paths;
  std::mt19937 gen(3);
  std::normal_distribution<float> normal;
  for (int f = 0; f < count; ++f) {
    paths.push_back(dir + "/part-" + std::to_string(f) + ".csv");
    if (mpi_rank() != 0) continue;
    std::ofstream out(paths.back());
    for (int r = 0; r < rows_of(f); ++r) {
      const float a = normal(gen), b = normal(gen), c = normal(gen);
      out << a << ',' << b << ',' << c << ',' << (a + b > 0 ? 1 : a - c > 0 ? 2 : 0) << '\n';
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return paths;
}

// Batches of ((a, b, c), label); counts the records this process reads.
k::data::Dataset csv_pipeline(const std::vector<std::string>& paths, std::int64_t batch, std::int64_t& records_read) {
  return k::data::CsvDataset(paths, {0.f, 0.f, 0.f, std::int64_t{0}})
      .map([&records_read](const k::data::Element& e) {
        ++records_read;
        std::vector<float> x;
        for (std::size_t i = 0; i < 3; ++i) x.push_back(static_cast<float>(e[i].leaf().tensor().item()));
        return k::data::tuple({k::data::Element(k::data::Component(k::Tensor::from_vector(x, {3}))), e[3]});
      })
      .batch(batch);
}

k::Sequential dense_model() {
  k::utils::set_random_seed(21);
  k::Sequential model({k::layers::Input({3}), k::layers::Dense(8, {.activation = "relu"}), k::layers::Dense(3)});
  model.compile({.optimizer = k::optimizers::SGD({.learning_rate = 0.1}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}), .metrics = {"accuracy"}});
  return model;
}

}  // namespace

TEST_CASE("AUTO splits a file pipeline by file: each replica reads only its files, all keep one model") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const int n = strategy.num_replicas_in_sync(), me = strategy.replica_id();
  // 2 files per replica, of different lengths: replicas run out at different steps and must not hang.
  auto rows_of = [](int f) { return 10 + 7 * f; };
  const auto paths = write_csv_files("auto_shard_file", 2 * n, rows_of);
  std::int64_t mine = 0, all = 0;
  for (int f = 0; f < 2 * n; ++f) (f % n == me ? mine : all) += rows_of(f);
  all += mine;
  auto scope = strategy.scope();
  auto model = dense_model();
  const auto before = flat_weights(model);
  std::int64_t read = 0;
  auto history = model.fit(csv_pipeline(paths, 8, read), {.epochs = 2, .verbose = 0});
  CHECK(read == 2 * mine);  // its own files, twice; not everything
  CHECK(read < 2 * all);
  CHECK(max_diff_from_chief(flat_weights(model)) == 0.0);  // the gradients were averaged: one model
  CHECK(max_abs_diff(flat_weights(model), before) > 1e-3);
  // The logged loss is the replicas' aggregate: the same on every rank.
  std::vector<float> loss{static_cast<float>(history.history.at("loss").back())};
  CHECK(max_diff_from_chief(loss) == 0.0);
  // evaluate splits the same way and agrees on every rank.
  read = 0;
  std::vector<float> eval{static_cast<float>(model.evaluate(csv_pipeline(paths, 8, read), {.verbose = 0}).at("loss"))};
  CHECK(read == mine);
  CHECK(max_diff_from_chief(eval) == 0.0);
}

TEST_CASE("AUTO with fewer files than replicas splits by data, as one process trains") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const auto paths = write_csv_files("auto_shard_data", 1, [](int) { return 64; });
  auto train = [&](bool distributed, std::int64_t& read) {
    std::optional<k::distribute::MultiWorkerMirroredStrategy::Scope> scope;
    if (distributed) scope.emplace(strategy.scope());
    auto model = dense_model();
    model.fit(csv_pipeline(paths, 16, read), {.epochs = 2, .verbose = 0});
    return flat_weights(model);
  };
  std::int64_t read_replicas = 0, read_single = 0;
  const auto replicas = train(true, read_replicas), single = train(false, read_single);
  CHECK(read_replicas == 128);  // every replica reads the whole file and keeps its rows of each batch
  CHECK(max_diff_from_chief(replicas) == 0.0);
  CHECK(max_abs_diff(replicas, single) < 2e-5);
}

TEST_CASE("Options' auto_shard_policy: FILE needs a file per replica, DATA and OFF read every file everywhere") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const int n = strategy.num_replicas_in_sync();
  auto policy = [](k::data::AutoShardPolicy p) {
    k::data::Options o;
    o.experimental_distribute.auto_shard_policy = p;
    return o;
  };
  auto scope = strategy.scope();
  auto model = dense_model();
  std::int64_t read = 0;
  // One file for N >= 2 replicas: FILE is refused (on every rank alike, so none is left waiting).
  const auto one_file = write_csv_files("shard_policy_one", 1, [](int) { return 12; });
  try {
    model.fit(csv_pipeline(one_file, 4, read).with_options(policy(k::data::AutoShardPolicy::FILE)), {.verbose = 0});
    FAIL("FILE with one file for " << n << " replicas trained");
  } catch (const k::ValueError& e) {
    CHECK_THAT(e.what(), Catch::Contains("CsvDataset reads 1 file(s) for " + std::to_string(n) + " replicas") &&
                             Catch::Contains("AutoShardPolicy.DATA"));
  }
  // 2N files: DATA and OFF read all of them on every replica (DATA keeps each replica's rows of every
  // batch; OFF trains each replica on everything, in per-replica batches). The model stays one.
  const auto files = write_csv_files("shard_policy_many", 2 * n, [](int f) { return 5 + f; });
  std::int64_t all = 0;
  for (int f = 0; f < 2 * n; ++f) all += 5 + f;
  for (auto p : {k::data::AutoShardPolicy::DATA, k::data::AutoShardPolicy::OFF}) {
    INFO("policy " << k::data::auto_shard_policy_name(p));
    read = 0;
    model.fit(csv_pipeline(files, 8, read).with_options(policy(p)), {.verbose = 0});
    CHECK(read == all);
    CHECK(max_diff_from_chief(flat_weights(model)) == 0.0);
  }
  // FILE with enough files: its own files only.
  read = 0;
  model.fit(csv_pipeline(files, 8, read).with_options(policy(k::data::AutoShardPolicy::FILE)), {.verbose = 0});
  CHECK(read < all);
  std::int64_t total = 0;
  MPI_Allreduce(&read, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(total == all);
}
