// Training throughput of kerascpp on Fashion-MNIST: prints "samples_per_sec: N".
//   build/bin/train_throughput --model mlp --batch-size 128 --epochs 1 --threads 2 [--run-eagerly 1]
#include <chrono>
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_memory.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  k::Tensor x, y;
  {  // only the float images and the labels stay in memory, as in the libtorch twin
    auto [train, test] = k::datasets::fashion_mnist::load_data();
    x = args.model == "cnn" ? (train.x / 255.f).reshape({-1, 28, 28, 1}) : train.x / 255.f;
    y = train.y;
  }
  k::Sequential model;
  if (args.model == "mlp") {  // workload 1: Flatten → Dense(512) → Dense(256) → Dense(10)
    model = k::Sequential({k::layers::Input({28, 28}), k::layers::Flatten(), k::layers::Dense(512, {.activation = "relu"}),
                           k::layers::Dense(256, {.activation = "relu"}), k::layers::Dense(10)});
  } else if (args.model == "cnn") {  // workload 2: the seed's CNN
    model = k::Sequential({k::layers::Input({28, 28, 1}), k::layers::Conv2D(32, {5, 5}, {.activation = "relu"}),
                           k::layers::MaxPooling2D({2, 2}), k::layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
                           k::layers::MaxPooling2D({2, 2}), k::layers::Flatten(),
                           k::layers::Dense(1024, {.activation = "relu"}), k::layers::Dropout(0.5), k::layers::Dense(10)});
  } else {
    throw std::invalid_argument("unknown --model " + args.model + " (available: mlp, cnn)");
  }
  if (args.samples > 0 && args.samples < x.dim(0)) {  // copies, so that the rest is freed as in the twin
    x = x.slice(0, args.samples).clone();
    y = y.slice(0, args.samples).clone();
  }
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}, .run_eagerly = args.run_eagerly});
  const double setup_peak = process_peak_rss_mb();  // making the data and the model
  reset_peak_rss();  // workload 6: the peak of training, with the data in memory
  const auto start = std::chrono::steady_clock::now();
  auto history = model.fit(x, y, {.batch_size = args.batch_size, .epochs = args.epochs, .verbose = 0});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("run_eagerly: %d\n", int(args.run_eagerly));
  std::printf("model: %s\nthreads: %d\nbatch_size: %ld\nepochs: %d\nfinal_loss: %.4f\nseconds: %.3f\nsamples_per_sec: %.0f\npeak_rss_mb: %.0f\nsetup_peak_rss_mb: %.0f\n",
              args.model.c_str(), args.threads, args.batch_size, args.epochs, history.history["loss"].back(), seconds,
              double(x.dim(0)) * args.epochs / seconds, peak_rss_mb(), setup_peak);
} catch (const std::exception& e) {
  std::fprintf(stderr, "train_throughput: %s\n", e.what());
  return 1;
}
