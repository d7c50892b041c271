// The libtorch twin of train_throughput: the same workload (bench_models_torch.hpp), Adam(1e-3) and batch
// size on random data of the same shape (the cost of a step does not depend on the values).
// Prints "samples_per_sec: N".
#include <chrono>
#include <cstdio>

#include "bench_args.hpp"
#include "bench_memory.hpp"
#include "bench_models_torch.hpp"

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  torch::manual_seed(1);
  bench::TorchWorkload w = bench::make_torch_workload(args.model);
  const int64_t n = args.samples > 0 && args.samples < w.samples ? args.samples : w.samples;
  const torch::Tensor x = bench::random_torch_inputs(w, n);
  const auto y = torch::randint(0, 10, {n}, torch::kLong);
  w.module->train();
  torch::optim::Adam opt(w.module->parameters(), torch::optim::AdamOptions(1e-3).eps(1e-7));
  double last_loss = 0;
  const double setup_peak = process_peak_rss_mb();  // making the data and the model
  reset_peak_rss();  // workload 6: the peak of training, with the data in memory
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 0; epoch < args.epochs; ++epoch) {
    auto perm = torch::randperm(n, torch::kLong);
    for (int64_t b = 0; b < n; b += args.batch_size) {
      auto idx = perm.slice(0, b, std::min(n, b + args.batch_size));
      auto xb = x.index_select(0, idx), yb = y.index_select(0, idx);
      opt.zero_grad();
      auto logits = w.forward(xb);
      auto loss = torch::nn::functional::cross_entropy(logits, yb);
      loss.backward();
      opt.step();
      // Keras reports a running accuracy; compute it too so both do the same work.
      auto correct = (logits.argmax(1) == yb).sum();
      last_loss = loss.item<double>() + 0 * correct.item<double>();
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("model: %s\nthreads: %d\nbatch_size: %ld\nepochs: %d\nfinal_loss: %.4f\nseconds: %.3f\nsamples_per_sec: %.0f\npeak_rss_mb: %.0f\nsetup_peak_rss_mb: %.0f\n",
              args.model.c_str(), args.threads, args.batch_size, args.epochs, last_loss, seconds,
              double(n) * args.epochs / seconds, peak_rss_mb(), setup_peak);
} catch (const std::exception& e) {
  std::fprintf(stderr, "train_throughput_torch: %s\n", e.what());
  return 1;
}
