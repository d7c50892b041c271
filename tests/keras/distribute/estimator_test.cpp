// An Estimator whose RunConfig names a strategy (train_distribute) trains as one process would: the premade
// DNNClassifier on Iris-like data, its weights after a few global batches equal a single-process run's, and
// only the chief writes checkpoints to the shared model_dir.
#include <catch2/catch.hpp>

#include "keras/estimator/estimator.hpp"
#include "replica_helpers.hpp"

using namespace keras_test;
namespace est = keras::estimator;
namespace fs = std::filesystem;

namespace {

est::InputFn iris_batches(const est::IrisLike& d, std::int64_t batch) {
  return [d, batch] {
    std::vector<std::pair<std::string, k::data::Element>> features;
    for (const auto& [name, t] : d.features) features.emplace_back(name, k::data::Element(t));
    return k::data::Dataset::from_tensor_slices(k::data::tuple({k::data::named(std::move(features)), d.labels})).batch(batch);
  };
}

std::vector<float> train_classifier(const est::IrisLike& data, const std::string& model_dir, std::uint64_t seed,
                                    k::ReplicaSync* sync) {
  std::vector<est::Column> columns;
  for (const auto& name : est::IrisLike::feature_names()) columns.push_back(est::numeric_column(name));
  est::DNNClassifier classifier({.hidden_units = {8}, .feature_columns = columns, .n_classes = 3,
                                 .config = {.model_dir = model_dir, .tf_random_seed = seed, .train_distribute = sync}});
  classifier.train(iris_batches(data, 16), {.steps = 6});
  return flat_weights(*classifier.model(est::ModeKeys::TRAIN));
}

}  // namespace

TEST_CASE("an Estimator with RunConfig.train_distribute trains as one process; only the chief writes model_dir") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const est::IrisLike data = est::make_iris_like(96, 3);
  long chief_pid = static_cast<long>(getpid());
  MPI_Bcast(&chief_pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const fs::path root = fs::temp_directory_path() / ("kerascpp_estimator_distribute_" + std::to_string(chief_pid));
  const std::string own_dir = (root / ("single_" + std::to_string(strategy.replica_id()))).string();
  const std::string shared_dir = (root / "shared").string();
  const std::vector<float> single = train_classifier(data, own_dir, 5, nullptr);
  // Each rank seeds its own initial weights: under the strategy the chief's are the ones trained.
  const auto seed = 5 + static_cast<std::uint64_t>(strategy.replica_id());
  const std::vector<float> replicated = train_classifier(data, shared_dir, seed, &strategy);
  CHECK(max_abs_diff(single, replicated) < 2e-5);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(fs::exists(fs::path(shared_dir) / "checkpoint"));  // the chief's, seen by every rank on this host
  MPI_Barrier(MPI_COMM_WORLD);
  if (strategy.is_chief()) fs::remove_all(root);
}
