// A sequence task that needs memory: each sequence of random tokens holds the markers A and B once
// each, at random positions; the label is 1 when A comes before B. A bag of tokens cannot tell (both
// classes hold the same tokens), so the recurrent layer must remember whether it has seen A when B comes.
//   Embedding(20, 16) → LSTM(32) | GRU(32) | Bidirectional(LSTM(32)) → Dense(1, sigmoid), Adam(1e-2).
// Usage: sequence_classification [--layer lstm|gru|bidirectional] [--epochs N] [--length T]
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include <keras/keras.hpp>

namespace k = keras;

namespace {

constexpr int kVocab = 20, kMarkerA = 1, kMarkerB = 2;

struct Data {
  k::Tensor x, y;
};

Data make_data(int n, int length, std::mt19937& gen) {
  std::vector<float> x(static_cast<std::size_t>(n) * length), y(static_cast<std::size_t>(n));
  std::uniform_int_distribution<int> token(kMarkerB + 1, kVocab - 1), pos(0, length - 1);
  for (int i = 0; i < n; ++i) {
    float* row = x.data() + static_cast<std::size_t>(i) * length;
    for (int t = 0; t < length; ++t) row[t] = static_cast<float>(token(gen));
    int a = pos(gen), b = pos(gen);
    while (b == a) b = pos(gen);
    row[a] = kMarkerA;
    row[b] = kMarkerB;
    y[i] = a < b ? 1.f : 0.f;
  }
  return {k::Tensor::from_vector(x, {n, length}), k::Tensor::from_vector(y, {n, 1})};
}

k::LayerRef recurrent_layer(const std::string& kind) {
  if (kind == "lstm") return k::layers::LSTM(32);
  if (kind == "gru") return k::layers::GRU(32);
  if (kind == "bidirectional") return k::layers::Bidirectional(k::layers::LSTM(32));
  throw k::ValueError("unknown --layer " + kind + " (use lstm, gru or bidirectional)");
}

}  // namespace

int main(int argc, char** argv) try {
  std::string kind = "lstm";
  int epochs = 4, length = 30;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--layer") && i + 1 < argc) kind = argv[++i];
    else if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--length") && i + 1 < argc) length = std::stoi(argv[++i]);
    else throw k::ValueError(std::string("unknown argument ") + argv[i] + " (use --layer, --epochs, --length)");
  }
  k::utils::set_random_seed(7);
  std::mt19937 gen(11);
  const Data train = make_data(10000, length, gen), test = make_data(2000, length, gen);

  k::Sequential model({
      k::layers::Input({length}),
      k::layers::Embedding(kVocab, 16),
      recurrent_layer(kind),
      k::layers::Dense(1, {.activation = "sigmoid"}),
  });
  model.summary();
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-2}),
                 .loss = "binary_crossentropy",
                 .metrics = {"accuracy"}});
  model.fit(train.x, train.y, {.batch_size = 64, .epochs = epochs, .validation_split = 0.1});
  auto results = model.evaluate(test.x, test.y, {.batch_size = 256});
  std::printf("test_accuracy: %.4f\n", results.at("accuracy"));
} catch (const std::exception& e) {
  std::fprintf(stderr, "sequence_classification: %s\n", e.what());
  return 1;
}
