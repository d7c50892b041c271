// Throughput of the text preprocessing layers on 100,000 short strings (4-12 words of a 5,000-word
// vocabulary, with capitals and punctuation), in batches: prints "<what>_elements_per_sec: N", elements
// being strings. TextVectorization's adapt, its call in int mode (padded to 16) and in multi_hot mode, and
// StringLookup on the single words.
//   build/bin/text_preprocessing_throughput [--strings 100000] [--batch 256]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <keras/keras.hpp>

namespace k = keras;
namespace L = keras::layers;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string word(std::size_t i) {  // "w" followed by base-26 letters: 5,000 distinct words
  std::string w = "w";
  for (; i; i /= 26) w += char('a' + i % 26);
  return w;
}

// Strings per second of `layer` over `texts` in batches of `batch`.
double rate(k::Layer& layer, const k::Tensor& texts, std::int64_t batch) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t n = texts.dim(0);
  for (std::int64_t b = 0; b + batch <= n; b += batch) (void)layer(texts.slice(b, b + batch), false);
  return double(n - n % batch) / seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t count = 100000, batch = 256;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--strings")) count = std::stoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--batch")) batch = std::stoll(argv[i + 1]);
  }
  std::mt19937 gen(1);
  std::vector<double> weights(5000);  // Zipf-like word frequencies
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = 1.0 / double(i + 1);
  std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
  std::uniform_int_distribution<int> length(4, 12);
  std::bernoulli_distribution capital(0.1), comma(0.1);
  std::vector<std::string> texts, words;
  for (std::int64_t i = 0; i < count; ++i) {
    std::string t;
    const int n = length(gen);
    for (int j = 0; j < n; ++j) {
      std::string w = word(pick(gen));
      if (j == 0) words.push_back(w);
      if (capital(gen)) w[0] = 'W';
      t += (j ? " " : "") + w + (comma(gen) ? "," : "");
    }
    texts.push_back(t + ".");
  }
  const k::Tensor text = k::Tensor::from_vector<std::string>(texts, {count, 1});
  const k::Tensor single = k::Tensor::from_vector<std::string>(words, {count});

  auto t0 = std::chrono::steady_clock::now();
  L::TextVectorization ints({.max_tokens = 20000, .output_sequence_length = 16});
  ints.adapt(text);
  std::printf("text_vectorization_adapt_elements_per_sec: %.0f\n", double(count) / seconds_since(t0));
  std::printf("text_vectorization_int_elements_per_sec: %.0f\n", rate(ints, text, batch));
  L::TextVectorization hot({.max_tokens = 20000, .output_mode = "multi_hot"});
  hot.set_vocabulary(ints.get_vocabulary(false));
  std::printf("text_vectorization_multi_hot_elements_per_sec: %.0f\n", rate(hot, text, batch));
  L::StringLookup lookup;
  t0 = std::chrono::steady_clock::now();
  lookup.adapt(single);
  std::printf("string_lookup_adapt_elements_per_sec: %.0f\n", double(count) / seconds_since(t0));
  std::printf("string_lookup_int_elements_per_sec: %.0f\n", rate(lookup, single, batch));
  return 0;
}
