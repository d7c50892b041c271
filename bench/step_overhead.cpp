// Framework overhead (workload 5): a Dense(10 → 10) model, batch 1, train_on_batch with SGD; the
// arithmetic is negligible, so the time per step is what the framework itself costs.
//   build/bin/step_overhead --threads 1 [--run-eagerly 1]     Prints "us_per_step".
// By default the train step is compiled (keras::function, traced once and replayed); --run-eagerly 1
// measures the op-by-op step (compile's run_eagerly), the step the libtorch twin corresponds to.
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_timing.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  k::Sequential model({k::layers::Input({10}), k::layers::Dense(10)});
  model.compile({.optimizer = k::optimizers::SGD({.learning_rate = 1e-3}), .loss = "mse",
                 .run_eagerly = args.run_eagerly});
  const k::Tensor x = k::Tensor::ones({1, 10}), y = k::Tensor::zeros({1, 10});
  for (int i = 0; i < 200; ++i) model.train_on_batch(x, y);
  const int steps = 20000;
  const double start = now_us();
  double loss = 0;
  for (int i = 0; i < steps; ++i) loss = model.train_on_batch(x, y).at("loss");
  std::printf("threads: %d\nrun_eagerly: %d\nfinal_loss: %.6f\nus_per_step: %.2f\n", args.threads,
              int(args.run_eagerly), loss, (now_us() - start) / steps);
} catch (const std::exception& e) {
  std::fprintf(stderr, "step_overhead: %s\n", e.what());
  return 1;
}
