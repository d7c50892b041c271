// Inference with the seed CNN (workload 4): predict() throughput over the 10,000 Fashion-MNIST test
// images, and the latency of one image (median and p99 over 1,000 calls).
//   build/bin/predict_latency --batch-size 32 --threads 2
// Prints "predict_samples_per_sec", "latency_median_us" and "latency_p99_us".
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_timing.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  auto [train, test] = k::datasets::fashion_mnist::load_data();
  const k::Tensor x = (test.x / 255.f).reshape({-1, 28, 28, 1});
  k::Sequential model({k::layers::Input({28, 28, 1}), k::layers::Conv2D(32, {5, 5}, {.activation = "relu"}),
                       k::layers::MaxPooling2D({2, 2}), k::layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
                       k::layers::MaxPooling2D({2, 2}), k::layers::Flatten(),
                       k::layers::Dense(1024, {.activation = "relu"}), k::layers::Dropout(0.5), k::layers::Dense(10)});
  model.predict(x.slice(0, 256), {.batch_size = args.batch_size});  // warm-up: primitives created once
  const double start = now_us();
  const k::Tensor out = model.predict(x, {.batch_size = args.batch_size});
  const double throughput = double(x.dim(0)) / ((now_us() - start) / 1e6);

  const k::Tensor one = x.slice(0, 1);
  for (int i = 0; i < 50; ++i) model.predict_on_batch(one);
  std::vector<double> latencies;
  for (int i = 0; i < 1000; ++i) {
    const double t0 = now_us();
    model.predict_on_batch(one);
    latencies.push_back(now_us() - t0);
  }
  std::printf("threads: %d\nbatch_size: %ld\noutput_checksum: %.4f\npredict_samples_per_sec: %.0f\n"
              "latency_median_us: %.1f\nlatency_p99_us: %.1f\n",
              args.threads, args.batch_size, double(k::ops::sum(out).item()), throughput, percentile(latencies, 50),
              percentile(latencies, 99));
} catch (const std::exception& e) {
  std::fprintf(stderr, "predict_latency: %s\n", e.what());
  return 1;
}
