// The libtorch twin of lstm_throughput: Embedding(10000, 128) → LSTM(128) (or GRU) → Linear(1) with
// BCE-with-logits and Adam on 2,048 random sequences of length 100. Prints "samples_per_sec: N".
#include <chrono>
#include <cstdio>

#include <torch/torch.h>

#include "bench_args.hpp"

struct Net : torch::nn::Module {
  explicit Net(bool gru)
      : embedding(register_module("embedding", torch::nn::Embedding(10000, 128))),
        linear(register_module("linear", torch::nn::Linear(128, 1))) {
    if (gru) this->gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(128, 128).batch_first(true)));
    else lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(128, 128).batch_first(true)));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    auto e = embedding->forward(ids);
    torch::Tensor h = lstm ? std::get<0>(std::get<1>(lstm->forward(e))) : std::get<1>(gru->forward(e));
    return linear->forward(h[0]);
  }
  torch::nn::Embedding embedding;
  torch::nn::Linear linear;
  torch::nn::LSTM lstm{nullptr};
  torch::nn::GRU gru{nullptr};
};

int main(int argc, char** argv) try {
  const BenchArgs args = parse_bench_args(argc, argv);
  torch::set_num_threads(args.threads);
  torch::manual_seed(1);
  const long n = 2048, length = 100;
  auto x = torch::randint(1, 10000, {n, length}, torch::kLong);
  auto y = (x.select(1, 0) > 5000).to(torch::kFloat).unsqueeze(1);
  Net net(args.model == "gru");
  torch::optim::Adam opt(net.parameters(), torch::optim::AdamOptions(1e-3).eps(1e-7));
  double last_loss = 0;
  auto step = [&](const torch::Tensor& xb, const torch::Tensor& yb) {
    opt.zero_grad();
    auto loss = torch::binary_cross_entropy_with_logits(net.forward(xb), yb);
    loss.backward();
    opt.step();
    last_loss = loss.item<double>();
  };
  step(x.slice(0, 0, args.batch_size), y.slice(0, 0, args.batch_size));  // warm-up
  const auto start = std::chrono::steady_clock::now();
  for (int epoch = 0; epoch < args.epochs; ++epoch) {
    auto perm = torch::randperm(n, torch::kLong);
    for (long b = 0; b < n; b += args.batch_size) {
      auto idx = perm.slice(0, b, std::min(n, b + args.batch_size));
      step(x.index_select(0, idx), y.index_select(0, idx));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("model: embedding-%s\nthreads: %d\nbatch_size: %ld\nfinal_loss: %.4f\nseconds: %.3f\nsamples_per_sec: %.0f\n",
              args.model == "gru" ? "gru" : "lstm", args.threads, args.batch_size, last_loss, seconds,
              double(n) * args.epochs / seconds);
} catch (const std::exception& e) {
  std::fprintf(stderr, "lstm_throughput_torch: %s\n", e.what());
  return 1;
}
