// Throughput of the image preprocessing layers on Fashion-MNIST batches in training mode (prints
// "<layer>_images_per_sec: N" and "<layer>_elements_per_sec: N" per layer, elements being pixels), and the
// augmentation stack of `fashion_mnist_cnn --augment` (RandomFlip, RandomTranslation, Rescaling) against
// what that model consumes in training, measured in the same run.
//   build/bin/augmentation_throughput [--images 12800] [--batch 32]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <keras/keras.hpp>

#include "../examples/seed_cnn.hpp"

namespace k = keras;
namespace L = keras::layers;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Images per second of `layer` in training over `images` in batches of `batch`.
double rate(k::Layer& layer, const k::Tensor& images, std::int64_t batch) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t n = images.shape()[0];
  for (std::int64_t b = 0; b + batch <= n; b += batch) (void)layer(images.slice(b, b + batch), true);
  return double(n - n % batch) / seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t count = 12800, batch = 32;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--images")) count = std::stoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--batch")) batch = std::stoll(argv[i + 1]);
  }
  auto [train, test] = k::datasets::fashion_mnist::load_data();
  const k::Tensor images = train.x.slice(0, count).astype(k::DType::float32).reshape({count, 28, 28, 1});
  const k::Tensor labels = train.y.slice(0, count);
  const double pixels = 28 * 28;

  std::vector<std::pair<std::string, std::function<k::LayerPtr()>>> layers = {
      {"rescaling", [] { return std::make_shared<L::Rescaling>(1.0 / 255); }},
      {"resizing_bilinear", [] { return std::make_shared<L::Resizing>(32, 32); }},
      {"random_flip", [] { return std::make_shared<L::RandomFlip>(L::RandomFlipOptions{.seed = 1}); }},
      {"random_rotation", [] { return std::make_shared<L::RandomRotation>(0.1, L::RandomRotationOptions{.seed = 1}); }},
      {"random_zoom", [] { return std::make_shared<L::RandomZoom>(0.1, L::RandomZoomOptions{.seed = 1}); }},
      {"random_translation",
       [] { return std::make_shared<L::RandomTranslation>(0.1, 0.1, L::RandomTranslationOptions{.seed = 1}); }},
      {"random_crop", [] { return std::make_shared<L::RandomCrop>(24, 24, L::RandomCropOptions{.seed = 1}); }},
      {"random_contrast", [] { return std::make_shared<L::RandomContrast>(0.2, L::RandomContrastOptions{.seed = 1}); }},
      {"random_brightness", [] { return std::make_shared<L::RandomBrightness>(0.2, L::RandomBrightnessOptions{.seed = 1}); }},
  };
  for (const auto& [name, make] : layers) {
    auto layer = make();
    const double r = rate(*layer, images, batch);
    std::printf("%s_images_per_sec: %.0f\n%s_elements_per_sec: %.0f\n", name.c_str(), r, name.c_str(), r * pixels);
  }

  // The stack `fashion_mnist_cnn --augment` starts with, against what that model (the seed CNN with the stack
  // inside, on raw pixels) consumes in training, measured in the same run.
  auto stack = [] {
    return std::vector<k::LayerRef>{L::RandomFlip({.mode = "horizontal", .seed = 2}),
                                    L::RandomTranslation(0.1, 0.1, {.fill_mode = "nearest", .seed = 2}),
                                    L::Rescaling(1.0 / 255)};
  };
  std::vector<k::LayerRef> front = {L::Input({28, 28, 1})};
  for (auto& l : stack()) front.push_back(l);
  k::Sequential augment(front);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::int64_t b = 0; b + batch <= count; b += batch) (void)augment(images.slice(b, b + batch), true);
  const double augment_rate = double(count - count % batch) / seconds_since(t0);

  k::Sequential cnn = seed_cnn(stack());
  cnn.compile({.optimizer = "adam", .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true})});
  const std::int64_t train_images = std::min<std::int64_t>(count, 3200);
  const auto t1 = std::chrono::steady_clock::now();
  for (std::int64_t b = 0; b + batch <= train_images; b += batch)
    cnn.train_on_batch(images.slice(b, b + batch), labels.slice(b, b + batch));
  const double train_rate = double(train_images - train_images % batch) / seconds_since(t1);
  std::printf("augment_stack_images_per_sec: %.0f\naugment_cnn_train_images_per_sec: %.0f\n"
              "augment_stack_over_training: %.1f\n",
              augment_rate, train_rate, augment_rate / train_rate);
}
