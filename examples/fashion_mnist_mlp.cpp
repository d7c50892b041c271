// Fashion-MNIST with a multi-layer perceptron: the Keras classic, in C++.
//   Flatten → Dense(512, relu) → Dense(256, relu) → Dense(10), Adam(1e-3), batch 128, 5 epochs.
#include <cstdio>

#include <keras/keras.hpp>

namespace k = keras;

int main() try {
  k::utils::set_random_seed(1);  // the same weights, shuffles and result on every run
  auto [train, test] = k::datasets::fashion_mnist::load_data();
  auto x_train = train.x / 255.f, x_test = test.x / 255.f;

  k::Sequential model({
      k::layers::Input({28, 28}),
      k::layers::Flatten(),
      k::layers::Dense(512, {.activation = "relu"}),
      k::layers::Dense(256, {.activation = "relu"}),
      k::layers::Dense(10),
  });
  model.summary();
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(x_train, train.y, {.batch_size = 128, .epochs = 5, .validation_split = 0.1});

  auto results = model.evaluate(x_test, test.y, {.batch_size = 128});
  std::printf("test_accuracy: %.4f\n", results.at("accuracy"));
} catch (const std::exception& e) {
  std::fprintf(stderr, "fashion_mnist_mlp: %s\n", e.what());
  return 1;
}
