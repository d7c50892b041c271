// The seed's convolutional network on Fashion-MNIST:
//   Conv2D(32, 5x5, relu) → MaxPooling2D → Conv2D(64, 3x3, relu) → MaxPooling2D → Flatten →
//   Dense(1024, relu) → Dropout(0.5) → Dense(10), Adam from 1e-3 with a cosine learning-rate decay
//   over the whole run (a constant 1e-3 plateaus near 0.915; the decay gets past it), batch 32.
//   With --augment the model takes raw pixels in [0, 255] and starts with preprocessing layers:
//   RandomFlip(horizontal) → RandomTranslation(±10%) → Rescaling(1/255), active in fit only, saved with it.
// Usage: fashion_mnist_cnn [--epochs N] [--batch-size B] [--save model.h5] [--augment]
#include <cstdio>
#include <cstring>
#include <string>

#include <keras/keras.hpp>

#include "seed_cnn.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  int epochs = 12;
  int batch_size = 32;
  std::string save_path;
  bool augment = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--batch-size") && i + 1 < argc) batch_size = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--save") && i + 1 < argc) save_path = argv[++i];
    else if (!std::strcmp(argv[i], "--augment")) augment = true;
    else
      throw k::ValueError(std::string("unknown argument ") + argv[i] +
                          " (use --epochs N, --batch-size B, --save FILE.h5, --augment)");
  }
  if (epochs <= 0 || batch_size <= 0) throw k::ValueError("--epochs and --batch-size must be positive");
  k::utils::set_random_seed(1);
  auto [train, test] = k::datasets::fashion_mnist::load_data();
  const float scale = augment ? 1.f : 1.f / 255.f;  // with --augment, Rescaling inside the model scales
  auto x_train = (train.x * scale).reshape({-1, 28, 28, 1});
  auto x_test = (test.x * scale).reshape({-1, 28, 28, 1});

  std::vector<k::LayerRef> front;  // with --augment: in-model augmentation, then Rescaling
  if (augment)
    front = {k::layers::RandomFlip({.mode = "horizontal"}), k::layers::RandomTranslation(0.1, 0.1, {.fill_mode = "nearest"}),
             k::layers::Rescaling(1.0 / 255)};
  k::Sequential model = seed_cnn(front);
  model.summary();
  const double validation_split = 0.1;
  const auto train_size = static_cast<std::int64_t>(x_train.dim(0) * (1 - validation_split));
  const auto steps = static_cast<double>(epochs) * ((train_size + batch_size - 1) / batch_size);
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = k::optimizers::schedules::CosineDecay(1e-3, steps)}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  model.fit(x_train, train.y, {.batch_size = batch_size, .epochs = epochs, .validation_split = validation_split});
  auto results = model.evaluate(x_test, test.y, {.batch_size = 256});
  if (!save_path.empty()) model.save(save_path);
  std::printf("test_accuracy: %.4f\n", results.at("accuracy"));
} catch (const std::exception& e) {
  std::fprintf(stderr, "fashion_mnist_cnn: %s\n", e.what());
  return 1;
}
