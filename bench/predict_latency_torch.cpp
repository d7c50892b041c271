// The libtorch twin of predict_latency: the seed CNN in eval mode under NoGradGuard, the same
// throughput run over 10,000 images of Fashion-MNIST's shape and the same single-image latency.
#include <cstdio>

#include <torch/torch.h>

#include "bench_args.hpp"
#include "bench_timing.hpp"

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  torch::manual_seed(1);
  torch::NoGradGuard no_grad;
  const long n = 10000;
  auto x = torch::rand({n, 1, 28, 28});
  torch::nn::Sequential model(torch::nn::Conv2d(1, 32, 5), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
                              torch::nn::Conv2d(32, 64, 3), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
                              torch::nn::Flatten(), torch::nn::Linear(64 * 5 * 5, 1024), torch::nn::ReLU(),
                              torch::nn::Dropout(0.5), torch::nn::Linear(1024, 10));
  model->eval();
  model->forward(x.slice(0, 0, 256));
  const double start = now_us();
  double checksum = 0;
  for (long b = 0; b < n; b += args.batch_size)
    checksum += model->forward(x.slice(0, b, std::min(n, b + args.batch_size))).sum().item<double>();
  const double throughput = double(n) / ((now_us() - start) / 1e6);

  auto one = x.slice(0, 0, 1);
  for (int i = 0; i < 50; ++i) model->forward(one);
  std::vector<double> latencies;
  for (int i = 0; i < 1000; ++i) {
    const double t0 = now_us();
    model->forward(one);
    latencies.push_back(now_us() - t0);
  }
  std::printf("threads: %d\nbatch_size: %ld\noutput_checksum: %.4f\npredict_samples_per_sec: %.0f\n"
              "latency_median_us: %.1f\nlatency_p99_us: %.1f\n",
              args.threads, args.batch_size, checksum, throughput, percentile(latencies, 50), percentile(latencies, 99));
} catch (const std::exception& e) {
  std::fprintf(stderr, "predict_latency_torch: %s\n", e.what());
  return 1;
}
