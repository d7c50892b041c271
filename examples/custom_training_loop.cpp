// A custom training loop on Fashion-MNIST: GradientTape + apply_gradients + standalone metrics,
// the pattern for when fit() is not flexible enough. Same network and result as fashion_mnist_mlp.
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

  k::optimizers::Adam optimizer({.learning_rate = 1e-3});
  k::losses::SparseCategoricalCrossentropy loss_fn({.from_logits = true});
  k::metrics::Mean train_loss({.name = "train_loss"}), valid_loss({.name = "valid_loss"});
  k::metrics::SparseCategoricalAccuracy train_metric({.name = "train_accuracy"}), valid_metric({.name = "valid_accuracy"});

  auto train_step = [&](const k::Tensor& x, const k::Tensor& y) {
    k::GradientTape tape;
    k::Tensor predictions = model(x, /*training=*/true);
    k::Tensor loss = loss_fn(y, predictions);
    auto gradients = tape.gradient(loss, model.trainable_weights());
    optimizer.apply_gradients(gradients, model.trainable_weights());
    train_loss.update(loss);
    train_metric.update_state(y, predictions);
  };
  auto valid_step = [&](const k::Tensor& x, const k::Tensor& y) {
    k::Tensor predictions = model(x);
    valid_loss.update(loss_fn(y, predictions));
    valid_metric.update_state(y, predictions);
  };

  const std::int64_t n = x_train.dim(0), batch = 128;
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  for (int epoch = 1; epoch <= 5; ++epoch) {
    std::shuffle(order.begin(), order.end(), k::utils::random_generator());
    for (std::int64_t b = 0; b < n; b += batch) {
      std::vector<std::int64_t> idx(order.begin() + b, order.begin() + std::min(n, b + batch));
      train_step(k::ops::take_rows(x_train, idx), k::ops::take_rows(train.y, idx));
    }
    for (std::int64_t b = 0; b < x_test.dim(0); b += batch) {
      const auto e = std::min(x_test.dim(0), b + batch);
      valid_step(x_test.slice(b, e), test.y.slice(b, e));
    }
    std::printf("Epoch=%d, Loss: %.4f, Accuracy: %.4f, Valid Loss: %.4f, Valid Accuracy: %.4f\n", epoch,
                train_loss.result(), train_metric.result(), valid_loss.result(), valid_metric.result());
    if (epoch == 5) std::printf("test_accuracy: %.4f\n", valid_metric.result());
    for (k::metrics::Metric* m : std::initializer_list<k::metrics::Metric*>{&train_loss, &valid_loss, &train_metric, &valid_metric})
      m->reset_state();
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "custom_training_loop: %s\n", e.what());
  return 1;
}
