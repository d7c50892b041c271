// Training throughput of Embedding(10000, 128) → LSTM(128) → Dense(1) on random sequences of
// length 100 (binary labels, Adam): prints "samples_per_sec: N". Twin: lstm_throughput_torch.
//   build/bin/lstm_throughput --batch-size 64 --epochs 1 --threads 2 [--model lstm|gru]
#include <chrono>
#include <cstdio>
#include <random>

#include <keras/keras.hpp>

#include "bench_args.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  BenchArgs args = parse_bench_args(argc, argv);
  if (args.model == "mlp") args.model = "lstm";  // the shared default
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  const int n = 2048, length = 100, vocab = 10000;
  std::mt19937 gen(1);
  std::uniform_int_distribution<int> token(1, vocab - 1);
  std::vector<float> ids(static_cast<std::size_t>(n) * length), labels(n);
  for (auto& v : ids) v = static_cast<float>(token(gen));
  for (int i = 0; i < n; ++i) labels[i] = static_cast<float>(ids[static_cast<std::size_t>(i) * length] > vocab / 2);
  k::Tensor x = k::Tensor::from_vector(ids, {n, length}), y = k::Tensor::from_vector(labels, {n, 1});
  k::Sequential model({k::layers::Input({length}), k::layers::Embedding(vocab, 128),
                       args.model == "gru" ? k::LayerRef(k::layers::GRU(128)) : k::LayerRef(k::layers::LSTM(128)),
                       k::layers::Dense(1)});
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                 .loss = k::losses::BinaryCrossentropy({.from_logits = true})});
  model.fit(x.slice(0, args.batch_size), y.slice(0, args.batch_size), {.batch_size = args.batch_size, .verbose = 0});  // warm-up
  const auto start = std::chrono::steady_clock::now();
  auto history = model.fit(x, y, {.batch_size = args.batch_size, .epochs = args.epochs, .verbose = 0});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("model: embedding-%s\nthreads: %d\nbatch_size: %ld\nfinal_loss: %.4f\nseconds: %.3f\nsamples_per_sec: %.0f\n",
              args.model.c_str(), args.threads, args.batch_size, history.history["loss"].back(), seconds,
              double(n) * args.epochs / seconds);
} catch (const std::exception& e) {
  std::fprintf(stderr, "lstm_throughput: %s\n", e.what());
  return 1;
}
