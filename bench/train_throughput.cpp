// Training throughput of one workload of bench_models.hpp: prints "samples_per_sec: N" (and the peak
// resident memory while training, workload 6). mlp and cnn train on Fashion-MNIST, the others on random
// data of their shape; the libtorch twin is train_throughput_torch.
//   build/bin/train_throughput --model mlp|cnn|resnet20|transformer|textcnn|lstm --batch-size 128 --epochs 1 --threads 2 [--run-eagerly 1]
#include <chrono>
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_memory.hpp"
#include "bench_models.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  bench::Workload w = bench::make_workload(args.model);
  k::Tensor x, y;
  if (args.model == "mlp" || args.model == "cnn") {  // only the float images and the labels stay in memory
    auto [train, test] = k::datasets::fashion_mnist::load_data();
    x = (train.x / 255.f).reshape(bench::batched(-1, w.sample_shape));
    y = train.y;
  } else {
    x = bench::random_inputs(w, w.samples);
    y = k::random::randint({w.samples}, 0, 10, k::DType::int32, 2);
  }
  if (args.samples > 0 && args.samples < x.dim(0)) {  // copies, so that the rest is freed as in the twin
    x = x.slice(0, args.samples).clone();
    y = y.slice(0, args.samples).clone();
  }
  w.model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                   .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                   .metrics = {"accuracy"}, .run_eagerly = args.run_eagerly});
  const double setup_peak = process_peak_rss_mb();  // making the data and the model
  reset_peak_rss();  // workload 6: the peak of training, with the data in memory
  const auto start = std::chrono::steady_clock::now();
  auto history = w.model.fit(x, y, {.batch_size = args.batch_size, .epochs = args.epochs, .verbose = 0});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("run_eagerly: %d\n", int(args.run_eagerly));
  std::printf("model: %s\nthreads: %d\nbatch_size: %ld\nepochs: %d\nfinal_loss: %.4f\nseconds: %.3f\nsamples_per_sec: %.0f\npeak_rss_mb: %.0f\nsetup_peak_rss_mb: %.0f\n",
              args.model.c_str(), args.threads, args.batch_size, args.epochs, history.history["loss"].back(), seconds,
              double(x.dim(0)) * args.epochs / seconds, peak_rss_mb(), setup_peak);
} catch (const std::exception& e) {
  std::fprintf(stderr, "train_throughput: %s\n", e.what());
  return 1;
}
