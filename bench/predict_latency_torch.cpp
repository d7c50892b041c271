// The libtorch twin of predict_latency: the same workload (bench_models_torch.hpp) in eval mode under
// NoGradGuard, the same throughput run over as many samples of the same shape and the same single-sample
// latency.
#include <cstdio>

#include "bench_args.hpp"
#include "bench_models_torch.hpp"
#include "bench_timing.hpp"

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  torch::manual_seed(1);
  torch::NoGradGuard no_grad;
  bench::TorchWorkload w = bench::make_torch_workload(args.model);
  const int64_t n = args.model == "mlp" || args.model == "cnn" ? 10000 : args.samples > 0 ? args.samples : 1024;
  const torch::Tensor x = bench::random_torch_inputs(w, n);
  w.module->eval();
  w.forward(x.slice(0, 0, std::min<int64_t>(n, 2 * args.batch_size)));  // warm-up
  const double start = now_us();
  double checksum = 0;
  for (int64_t b = 0; b < n; b += args.batch_size)
    checksum += w.forward(x.slice(0, b, std::min(n, b + args.batch_size))).sum().item<double>();
  const double throughput = double(n) / ((now_us() - start) / 1e6);

  auto one = x.slice(0, 0, 1);
  for (int i = 0; i < 50; ++i) w.forward(one);
  std::vector<double> latencies;
  for (int i = 0; i < 1000; ++i) {
    const double t0 = now_us();
    w.forward(one);
    latencies.push_back(now_us() - t0);
  }
  std::printf("model: %s\nthreads: %d\nbatch_size: %ld\noutput_checksum: %.4f\npredict_samples_per_sec: %.0f\n"
              "latency_median_us: %.1f\nlatency_p99_us: %.1f\n",
              args.model.c_str(), args.threads, args.batch_size, checksum, throughput, percentile(latencies, 50),
              percentile(latencies, 99));
} catch (const std::exception& e) {
  std::fprintf(stderr, "predict_latency_torch: %s\n", e.what());
  return 1;
}
