// The seed's convolutional network on Fashion-MNIST, trained data-parallel over MPI:
//   mpirun -np N distributed_fashion_mnist [--epochs E] [--batch-size GLOBAL] [--threads T]
//                                          [--samples S] [--timeline trace.json] [--bucket-mb M] [--overlap | --no-overlap]
// Every rank trains on its share of each global batch (GLOBAL / N rows) and applies the gradients averaged
// over all ranks; the chief (rank 0) prints the progress, then as its last lines the global training
// throughput (samples of all ranks per second of fit) and the test accuracy. With -np 1 (or without
// mpirun) it is an ordinary single-process run.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include <keras/distribute/distribute.hpp>
#include <keras/keras.hpp>

#include "seed_cnn.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  int epochs = 1, batch_size = 64, threads = 0;
  double bucket_mb = 25;
  std::optional<bool> overlap;  // automatic: when a core is free for the communication thread
  std::int64_t samples = 0;
  std::string timeline;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--batch-size") && i + 1 < argc) batch_size = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc) samples = std::stoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--timeline") && i + 1 < argc) timeline = argv[++i];
    else if (!std::strcmp(argv[i], "--bucket-mb") && i + 1 < argc) bucket_mb = std::stod(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-overlap")) overlap = false;
    else if (!std::strcmp(argv[i], "--overlap")) overlap = true;
    else
      throw k::ValueError(std::string("unknown argument ") + argv[i] +
                          " (use --epochs E, --batch-size GLOBAL, --threads T, --samples S, --timeline FILE.json, "
                          "--bucket-mb M, --overlap, --no-overlap)");
  }
  if (epochs <= 0 || batch_size <= 0 || threads < 0 || samples < 0 || bucket_mb <= 0)
    throw k::ValueError("--epochs, --batch-size and --bucket-mb must be positive, --threads and --samples >= 0 (0: "
                        "automatic, all)");
  k::utils::set_random_seed(1);
  k::distribute::MultiWorkerMirroredStrategy strategy(
      {.bucket_bytes = static_cast<std::size_t>(bucket_mb * 1e6), .overlap = overlap, .timeline = timeline,
       .threads = threads});
  auto scope = strategy.scope();
  if (strategy.is_chief())
    std::printf("replicas: %d, global batch %d (%d per replica), %d thread(s) per replica\n",
                strategy.num_replicas_in_sync(), batch_size, batch_size / strategy.num_replicas_in_sync(),
                k::utils::get_num_threads());

  auto [train, test] = k::datasets::fashion_mnist::load_data();
  auto x_train = (train.x / 255.f).reshape({-1, 28, 28, 1});
  auto y_train = train.y;
  if (samples > 0 && samples < x_train.dim(0)) {
    x_train = x_train.slice(0, samples);
    y_train = y_train.slice(0, samples);
  }
  auto x_test = (test.x / 255.f).reshape({-1, 28, 28, 1});

  k::Sequential model = seed_cnn();
  const auto steps = static_cast<double>(epochs) * ((x_train.dim(0) + batch_size - 1) / batch_size);
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = k::optimizers::schedules::CosineDecay(1e-3, steps)}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
  const auto began = std::chrono::steady_clock::now();
  model.fit(x_train, y_train, {.batch_size = batch_size, .epochs = epochs, .verbose = 2});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  auto results = model.evaluate(x_test, test.y, {.batch_size = 256, .verbose = 0});
  strategy.write_timeline();
  if (strategy.is_chief()) {
    std::printf("samples_per_sec: %.1f\n", double(epochs) * double(x_train.dim(0)) / seconds);
    std::printf("test_accuracy: %.4f\n", results.at("accuracy"));
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "distributed_fashion_mnist: %s\n", e.what());
  return 1;
}
