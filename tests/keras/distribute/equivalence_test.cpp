// N replicas with a global batch B must train as one process with batch B: same data order (one global
// shuffle), gradients averaged over the replicas' rows, logs aggregated. The reference is the same
// training run without the strategy, in the same process.
#include <catch2/catch.hpp>

#include "replica_helpers.hpp"

using namespace keras_test;

namespace {

// 50 steps: 2 epochs of 25 global batches of 16 rows, reshuffled each epoch.
constexpr std::int64_t batch = 16, samples = 400;

struct Run {
  std::vector<float> weights;
  k::callbacks::History history;
};

Run train_arrays(bool distributed, k::distribute::MultiWorkerMirroredStrategy& strategy) {
  std::optional<k::distribute::MultiWorkerMirroredStrategy::Scope> scope;
  if (distributed) scope.emplace(strategy.scope());
  auto model = small_cnn(11);
  compile_adam(model);
  const Data d = labelled_images(samples, 5);
  auto history = model.fit(d.x, d.y, {.batch_size = batch, .epochs = 2, .verbose = 0, .shuffle = true});
  return {flat_weights(model), history};
}

}  // namespace

TEST_CASE("N replicas x global batch B give one process's weights with batch B after 50 steps (arrays, shuffled)") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const Run replicas = train_arrays(true, strategy);
  const Run single = train_arrays(false, strategy);
  INFO("rank " << strategy.replica_id() << " of " << strategy.num_replicas_in_sync());
  CHECK(max_diff_from_chief(replicas.weights) == 0.0);  // every replica holds the same weights
  CHECK(max_abs_diff(replicas.weights, single.weights) < 2e-5);
  // The logged loss and accuracy are those of the global batches, as one process logs them.
  REQUIRE(replicas.history.history.at("loss").size() == 2);
  for (const char* key : {"loss", "accuracy"})
    for (std::size_t e = 0; e < 2; ++e)
      CHECK(replicas.history.history.at(key)[e] == Approx(single.history.history.at(key)[e]).epsilon(1e-4));
  // Training moved the weights: the comparison is not between two untrained models.
  CHECK(max_abs_diff(single.weights, flat_weights(small_cnn(11))) > 1e-2);
}

TEST_CASE("a shuffled from_tensor_slices Dataset is sharded by data with one global order") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto train = [&](bool distributed) {
    std::optional<k::distribute::MultiWorkerMirroredStrategy::Scope> scope;
    if (distributed) scope.emplace(strategy.scope());
    auto model = small_cnn(12);
    compile_adam(model);
    const Data d = labelled_images(samples, 6);
    auto ds = k::data::Dataset::from_tensor_slices(d.x, d.y).shuffle(samples).batch(batch);
    model.fit(ds, {.epochs = 2, .verbose = 0});
    return flat_weights(model);
  };
  const auto replicas = train(true);
  const auto single = train(false);
  CHECK(max_diff_from_chief(replicas) == 0.0);
  CHECK(max_abs_diff(replicas, single) < 2e-5);
}

TEST_CASE("evaluate under the strategy gives the chief's model's loss and accuracy on the whole data") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto model = small_cnn(13 + static_cast<std::uint64_t>(strategy.replica_id()));  // the chief's weights count
  compile_adam(model);
  const Data d = labelled_images(203, 7);  // an uneven last batch: replicas get different row counts
  auto chief = model.evaluate(d.x, d.y, {.batch_size = 20, .verbose = 0});  // each rank's own model here
  std::vector<float> chief_logs{static_cast<float>(chief.at("loss")), static_cast<float>(chief.at("accuracy"))};
  MPI_Bcast(chief_logs.data(), 2, MPI_FLOAT, 0, MPI_COMM_WORLD);
  auto scope = strategy.scope();
  const auto replicas = model.evaluate(d.x, d.y, {.batch_size = 20, .verbose = 0});
  CHECK(replicas.at("loss") == Approx(chief_logs[0]).epsilon(1e-5));
  CHECK(replicas.at("accuracy") == Approx(chief_logs[1]).epsilon(1e-5));
}

TEST_CASE("ratio metrics under the strategy are the metric of all rows (summed states), not a mean of ratios") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  k::utils::set_random_seed(17 + static_cast<std::uint64_t>(strategy.replica_id()));
  k::Sequential model({k::layers::Input({6, 6, 1}), k::layers::Flatten(), k::layers::Dense(1)});
  model.compile({.optimizer = "sgd", .loss = k::losses::BinaryCrossentropy({.from_logits = true}),
                 .metrics = {k::metrics::Precision({.thresholds = {0.0}}), k::metrics::Recall({.thresholds = {0.0}}),
                             k::metrics::AUC({.from_logits = true})}});
  const Data d = labelled_images(203, 9);
  const k::Tensor y = k::ops::cast(k::ops::greater(d.y, k::Tensor::scalar(std::int64_t{0})), k::DType::float32);
  // Batches of 40 split 20/20 (2 ranks) or 10 each (4), and the last, of 3 rows, unevenly: replicas see
  // different numbers of positives, so a mean of their ratios weighted by rows misses the true ratio.
  auto own = model.evaluate(d.x, y, {.batch_size = 40, .verbose = 0});
  std::vector<double> chief{own.at("precision"), own.at("recall"), own.at("auc"), own.at("loss")};
  MPI_Bcast(chief.data(), 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  auto scope = strategy.scope();
  const auto replicas = model.evaluate(d.x, y, {.batch_size = 40, .verbose = 0});
  CHECK(replicas.at("precision") == Approx(chief[0]).epsilon(1e-9));
  CHECK(replicas.at("recall") == Approx(chief[1]).epsilon(1e-9));
  CHECK(replicas.at("auc") == Approx(chief[2]).epsilon(1e-9));
  CHECK(replicas.at("loss") == Approx(chief[3]).epsilon(1e-6));
  auto history = model.fit(d.x, y, {.batch_size = 40, .epochs = 1, .verbose = 0});
  std::vector<double> logged{history.history["precision"].back(), history.history["auc"].back()};
  std::vector<double> first = logged;
  MPI_Bcast(first.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  CHECK(logged == first);  // every replica logs the same aggregated values
}

TEST_CASE("small buckets reduced during the backward pass give the result of one bucket reduced after it") {
  auto train = [](std::size_t bucket_bytes, bool overlap) {
    k::distribute::MultiWorkerMirroredStrategy strategy({.bucket_bytes = bucket_bytes, .overlap = overlap, .threads = 1});
    auto scope = strategy.scope();
    auto model = small_cnn(14);
    compile_adam(model);
    const Data d = labelled_images(160, 8);
    model.fit(d.x, d.y, {.batch_size = batch, .epochs = 1, .verbose = 0});
    return flat_weights(model);
  };
  const auto one_bucket = train(25u << 20, false);
  CHECK(max_abs_diff(train(64, true), one_bucket) < 1e-6);  // smaller than one variable: a bucket each
  CHECK(max_abs_diff(train(25u << 20, true), one_bucket) < 1e-6);
}

TEST_CASE("predict under the strategy splits each batch across replicas and gives every replica all outputs in order") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const int n = strategy.num_replicas_in_sync();
  // Not compiled, and different initial weights on every rank: predict uses the chief's.
  auto model = small_cnn(15 + static_cast<std::uint64_t>(strategy.replica_id()));
  std::int64_t rows_here = 0;  // the rows this replica's model actually sees
  model.add(k::layers::Lambda([&](const k::Tensor& t) {
    rows_here += t.dim(0);
    return t;
  }));
  const Data d = labelled_images(203, 9);  // last global batch of 3 rows: fewer than 4 replicas
  std::vector<float> chief = model.predict(d.x, {.batch_size = 20, .verbose = 0}).to_vector<float>();
  MPI_Bcast(chief.data(), static_cast<int>(chief.size()), MPI_FLOAT, 0, MPI_COMM_WORLD);
  rows_here = 0;
  auto scope = strategy.scope();
  const k::Tensor arrays = model.predict(d.x, {.batch_size = 20, .verbose = 0});
  CHECK(arrays.shape() == k::Shape{203, 3});
  CHECK(max_abs_diff(arrays.to_vector<float>(), chief) < 1e-6);
  // Each replica computed only its share of every batch: about 203 / N rows, not 203.
  std::int64_t total = 0;
  MPI_Allreduce(&rows_here, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(total == 203);
  CHECK(rows_here <= 203 / n + 11);
  // A Dataset source gives the same.
  const k::Tensor from_dataset = model.predict(k::data::Dataset::from_tensor_slices(d.x).batch(20), {.verbose = 0});
  CHECK(max_abs_diff(from_dataset.to_vector<float>(), chief) < 1e-6);
}

namespace {
// A train_step of its own (as README's): tape, compute_loss, apply_gradients. Under a strategy the
// gradients are averaged in apply_gradients, as tf.keras does.
class OwnStepModel : public k::Model {
 public:
  OwnStepModel() : k::Model("own_step") {
    k::utils::set_random_seed(16 + static_cast<std::uint64_t>(mpi_rank()));  // different weights per rank
    hidden_ = track(k::layers::Dense(8, {.activation = "relu"}));
    out_ = track(k::layers::Dense(3));
  }
  k::Tensor call(const k::Tensor& x, bool training) override {
    return (*out_)((*hidden_)(k::ops::reshape(x, {-1, 36}), training), training);
  }
  k::Logs train_step(const k::Batch& data) override {
    k::GradientTape tape;
    auto y_pred = call_all(data.x, {.training = true});
    k::Tensor loss = compute_loss(data.x, data.y, y_pred, data.sample_weight);
    auto vars = trainable_weights();
    optimizer().apply_gradients(tape.gradient(loss, vars), vars);
    return compute_metrics(data.x, data.y, y_pred, data.sample_weight);
  }

 private:
  std::shared_ptr<k::layers::Dense> hidden_, out_;
};
}  // namespace

TEST_CASE("an overridden train_step under the strategy trains as one process (apply_gradients averages)") {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  const Data d = labelled_images(160, 10);
  auto train = [&](bool distributed) {
    std::optional<k::distribute::MultiWorkerMirroredStrategy::Scope> scope;
    if (distributed) scope.emplace(strategy.scope());
    OwnStepModel model;
    model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-2}),
                   .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true})});
    model.fit(d.x, d.y, {.batch_size = batch, .epochs = 1, .verbose = 0, .shuffle = false});
    return flat_weights(model);
  };
  const auto replicas = train(true);
  CHECK(max_diff_from_chief(replicas) == 0.0);
  // The single-process reference starts from the chief's initial weights.
  std::vector<float> single = train(false);
  MPI_Bcast(single.data(), static_cast<int>(single.size()), MPI_FLOAT, 0, MPI_COMM_WORLD);
  CHECK(max_abs_diff(replicas, single) < 2e-5);
}
