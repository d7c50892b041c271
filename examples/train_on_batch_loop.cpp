// Training with train_on_batch / test_on_batch on Fashion-MNIST, halving the learning rate late in
// training: the pattern for driving a compiled model batch by batch.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include <keras/keras.hpp>
#include <keras/utils/random.hpp>  // the generator kerascpp shuffles with

namespace k = keras;

int main() try {
  k::utils::set_random_seed(1);
  auto [train, test] = k::datasets::fashion_mnist::load_data();
  auto x_train = train.x / 255.f, x_test = test.x / 255.f;
  k::Sequential model({k::layers::Input({28, 28}), k::layers::Flatten(), k::layers::Dense(512, {.activation = "relu"}),
                       k::layers::Dense(256, {.activation = "relu"}), k::layers::Dense(10)});
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});

  const std::int64_t n = x_train.dim(0), batch = 128;
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  k::Logs valid;
  for (int epoch = 1; epoch <= 6; ++epoch) {
    model.reset_metrics();
    if (epoch == 5) {  // lower the learning rate late in training
      model.optimizer().set_learning_rate(model.optimizer().learning_rate() / 2.0);
      std::printf("Lowering optimizer learning rate to %g\n", model.optimizer().learning_rate());
    }
    std::shuffle(order.begin(), order.end(), k::utils::random_generator());
    k::Logs train_logs;
    for (std::int64_t b = 0; b < n; b += batch) {
      std::vector<std::int64_t> idx(order.begin() + b, order.begin() + std::min(n, b + batch));
      train_logs = model.train_on_batch(k::ops::take_rows(x_train, idx), k::ops::take_rows(train.y, idx),
                                        k::Tensor(), /*reset_metrics=*/false);
    }
    model.reset_metrics();
    for (std::int64_t b = 0; b < x_test.dim(0); b += batch) {
      const auto e = std::min(x_test.dim(0), b + batch);
      valid = model.test_on_batch(x_test.slice(b, e), test.y.slice(b, e), k::Tensor(), /*reset_metrics=*/false);
    }
    std::printf("epoch = %d  train: loss %.4f accuracy %.4f  valid: loss %.4f accuracy %.4f\n", epoch,
                train_logs.at("loss"), train_logs.at("accuracy"), valid.at("loss"), valid.at("accuracy"));
  }
  std::printf("test_accuracy: %.4f\n", valid.at("accuracy"));
} catch (const std::exception& e) {
  std::fprintf(stderr, "train_on_batch_loop: %s\n", e.what());
  return 1;
}
