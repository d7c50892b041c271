// The libtorch twin of step_overhead: Linear(10, 10), batch 1, MSE, SGD; zero_grad, forward,
// backward, step and reading the loss, as train_on_batch does.
#include <cstdio>

#include <torch/torch.h>

#include "bench_args.hpp"
#include "bench_timing.hpp"

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  torch::manual_seed(1);
  torch::nn::Linear model(10, 10);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(1e-3));
  const auto x = torch::ones({1, 10}), y = torch::zeros({1, 10});
  auto step = [&] {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
    return loss.item<double>();
  };
  for (int i = 0; i < 200; ++i) step();
  const int steps = 20000;
  const double start = now_us();
  double loss = 0;
  for (int i = 0; i < steps; ++i) loss = step();
  std::printf("threads: %d\nfinal_loss: %.6f\nus_per_step: %.2f\n", args.threads, loss, (now_us() - start) / steps);
} catch (const std::exception& e) {
  std::fprintf(stderr, "step_overhead_torch: %s\n", e.what());
  return 1;
}
