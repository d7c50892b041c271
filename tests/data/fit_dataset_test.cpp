// Model::fit / evaluate / predict on Datasets.
#include <random>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;
using data::Dataset;

namespace {
std::pair<Tensor, Tensor> blobs(std::int64_t n) {
  std::mt19937 gen(1);
  std::normal_distribution<float> noise(0.f, 0.3f);
  Tensor x = Tensor::empty({n, 4});
  Tensor y = Tensor::empty({n}, DType::int32);
  for (std::int64_t i = 0; i < n; ++i) {
    const int c = int(i % 3);
    y.data<std::int32_t>()[i] = c;
    for (int j = 0; j < 4; ++j) x.data<float>()[i * 4 + j] = (j == c ? 2.f : 0.f) + noise(gen);
  }
  return {x, y};
}

Sequential compiled_model() {
  Sequential m({layers::Input({4}), layers::Dense(16, {.activation = "relu"}), layers::Dense(3)});
  m.compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}),
             .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}), .metrics = {"accuracy"}});
  return m;
}

struct BatchCounter : callbacks::Callback {
  int batches = 0;
  void on_train_batch_end(std::int64_t, Logs&) override { ++batches; }
};
}  // namespace

TEST_CASE("fit on a Dataset equals fit on the same arrays, batch for batch", "[data][fit]") {
  auto [x, y] = blobs(96);
  utils::set_random_seed(5);
  Sequential a = compiled_model();
  auto ha = a.fit(x, y, {.batch_size = 16, .epochs = 3, .verbose = 0, .shuffle = false});
  utils::set_random_seed(5);
  Sequential b = compiled_model();
  auto hb = b.fit(Dataset::from_tensor_slices(x, y).batch(16).prefetch(data::AUTOTUNE), {.epochs = 3, .verbose = 0});
  REQUIRE(hb.history.at("loss").size() == 3);
  for (int e = 0; e < 3; ++e) CHECK(hb.history.at("loss")[e] == Approx(ha.history.at("loss")[e]).epsilon(1e-6));
  CHECK(hb.history.at("loss").back() < hb.history.at("loss").front());
}

TEST_CASE("fit on a shuffled, mapped, prefetched Dataset trains, evaluate and predict take Datasets", "[data][fit]") {
  auto [x, y] = blobs(150);
  utils::set_random_seed(2);
  Sequential m = compiled_model();
  auto ds = Dataset::from_tensor_slices(x, y)
                .map([](const data::Element& e) { return data::tuple({e[0], e[1]}); }, {.num_parallel_calls = 2})
                .shuffle(150, {.seed = 3})
                .batch(10)
                .prefetch(data::AUTOTUNE);
  auto val = Dataset::from_tensor_slices(x, y).batch(50);
  auto h = m.fit(ds, {.epochs = 8, .verbose = 0, .validation_data = val});
  CHECK(h.history.at("accuracy").back() > 0.9);
  CHECK(h.history.count("val_loss") == 1);
  Logs r = m.evaluate(val, {.verbose = 0});
  CHECK(r.at("loss") == Approx(h.history.at("val_loss").back()).epsilon(1e-5));
  Logs same = m.evaluate(x, y, {.batch_size = 50, .verbose = 0});
  CHECK(r.at("accuracy") == Approx(same.at("accuracy")));
  Tensor p = m.predict(Dataset::from_tensor_slices(x).batch(32));
  CHECK(p.shape() == Shape{150, 3});
  Tensor q = m.predict(x);
  CHECK(p.to_vector<float>() == q.to_vector<float>());
  // (x, y, sample_weight) elements: zero weights leave the loss to the other samples.
  Tensor w = Tensor::ones({150});
  Logs weighted = m.evaluate(Dataset::from_tensor_slices(data::tuple({x, y, w})).batch(50), {.verbose = 0});
  CHECK(weighted.at("loss") == Approx(r.at("loss")).epsilon(1e-5));
}

TEST_CASE("steps_per_epoch for an infinite dataset, running out of data stops fit", "[data][fit]") {
  auto [x, y] = blobs(60);
  Sequential m = compiled_model();
  auto forever = Dataset::from_tensor_slices(x, y).batch(10).repeat();
  CHECK_THROWS_WITH(m.fit(forever, {.epochs = 1, .verbose = 0}), Catch::Contains("steps_per_epoch"));
  auto counter = std::make_shared<BatchCounter>();
  auto h = m.fit(forever, {.epochs = 3, .verbose = 0, .callbacks = {counter}, .validation_data = forever,
                           .steps_per_epoch = 4, .validation_steps = 2});
  CHECK(counter->batches == 12);
  CHECK(h.epoch.size() == 3);
  // 6 batches for 3 epochs of 4 steps: the second epoch runs out and training stops.
  counter->batches = 0;
  auto h2 = m.fit(Dataset::from_tensor_slices(x, y).batch(10), {.epochs = 3, .verbose = 0, .callbacks = {counter},
                                                                 .steps_per_epoch = 4});
  CHECK(counter->batches == 6);
  CHECK(h2.epoch.size() == 2);
  CHECK_THROWS_WITH(m.fit(Dataset::from_tensor_slices(x).batch(10), {.verbose = 0}), Catch::Contains("(x, y)"));
  CHECK_THROWS_WITH(m.fit(Dataset::from_tensor_slices(x, y).batch(10), {.verbose = 0, .validation_split = 0.2}),
                    Catch::Contains("validation_split"));
}
