// Text classification from raw strings: the model itself turns text into numbers.
//   Input(string) → TextVectorization(max_tokens 2000, 24 tokens) → Embedding(2000, 16)
//   → GlobalAveragePooling1D → Dense(16, relu) → Dense(1, sigmoid), Adam(1e-2), binary cross-entropy.
// The data set is made here, with no download: short film reviews written into a folder as text files
// (DATA/train/{neg,pos}/*.txt and DATA/test/...), as a user keeps them, then read back from the folder.
// A review mixes neutral words with 1-3 opinion words; each opinion word agrees with the review's label
// with probability 0.8, so some reviews say the opposite of their label and no model reaches 100%.
// TextVectorization lowercases and strips punctuation ("Great!" and "great" are one token).
// The trained model is saved as a .keras archive, loaded back and asked about new raw sentences.
// Usage: text_classification [--data DIR] [--epochs N] [--bench]
// --bench measures, in one run, the input pipeline against what training consumes, in samples per second
// (see bench() below), and exits; bench/input_pipelines.sh runs it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <keras/keras.hpp>
#include <keras/trainers/array_data_adapter.hpp>

namespace k = keras;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kPositive = {"great", "wonderful", "superb", "enjoyable", "brilliant",
                                            "moving", "delightful", "charming", "excellent", "fun"};
const std::vector<std::string> kNegative = {"boring", "awful", "dull", "terrible", "weak",
                                            "tedious", "clumsy", "bland", "poor", "messy"};
const std::vector<std::string> kNeutral = {"the", "film", "movie", "plot", "actors", "story", "was", "and", "a",
                                           "very", "quite", "with", "ending", "script", "music", "but", "of", "it",
                                           "this", "director", "scenes", "cast", "really", "at", "times"};

std::string review(bool positive, std::mt19937& gen) {
  std::uniform_int_distribution<int> length(6, 14), opinions(1, 3), word(0, 9), filler(0, int(kNeutral.size()) - 1);
  std::bernoulli_distribution agrees(0.8), capital(0.2), bang(0.3);
  std::vector<std::string> words;
  const int n = length(gen);
  for (int i = 0; i < n; ++i) words.push_back(kNeutral[std::size_t(filler(gen))]);
  const int m = opinions(gen);
  for (int i = 0; i < m; ++i) {
    const bool pos = agrees(gen) ? positive : !positive;
    std::string w = (pos ? kPositive : kNegative)[std::size_t(word(gen))];
    if (capital(gen)) w[0] = char(std::toupper(w[0]));
    if (bang(gen)) w += "!";
    words.insert(words.begin() + std::uniform_int_distribution<int>(0, int(words.size()))(gen), w);
  }
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : " ") + w;
  text[0] = char(std::toupper(text[0]));
  return text + ".";
}

// Writes DIR/<split>/{neg,pos}/NNNNN.txt unless the folder is there already.
void write_reviews(const fs::path& dir, const std::string& split, int per_class, unsigned seed) {
  if (fs::exists(dir / split)) return;
  std::mt19937 gen(seed);
  for (const char* label : {"neg", "pos"}) {
    fs::create_directories(dir / split / label);
    for (int i = 0; i < per_class; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "%05d.txt", i);
      std::ofstream(dir / split / label / name) << review(std::string(label) == "pos", gen) << "\n";
    }
  }
}

struct Texts {
  k::Tensor x, y;  // strings [n, 1], labels [n, 1]
};

// Every text file of DIR/<split>/<class>/, the classes in alphabetical order (neg = 0, pos = 1), as
// keras.utils.text_dataset_from_directory labels them.
Texts read_reviews(const fs::path& dir) {
  std::vector<fs::path> classes;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) classes.push_back(e.path());
  std::sort(classes.begin(), classes.end());
  std::vector<std::string> texts;
  std::vector<float> labels;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(classes[c]))
      if (e.path().extension() == ".txt") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f);
      std::stringstream s;
      s << in.rdbuf();
      texts.push_back(s.str());
      labels.push_back(float(c));
    }
  }
  const auto n = static_cast<std::int64_t>(texts.size());
  return {k::Tensor::from_vector<std::string>(texts, {n, 1}), k::Tensor::from_vector(labels, {n, 1})};
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Samples per second, over `passes` epochs, of: the one-off read of the review files; the input pipeline
// fit runs on the arrays each epoch (shuffled batches of 32, ArrayDataAdapter); the model's TextVectorization
// on those batches; and training (fit, which includes TextVectorization). The pipeline must outrun training
// by 5x; TextVectorization is part of what the model consumes, its share of a step is printed too.
void bench(const fs::path& data, k::Layer& vectorize, k::Model& model, const Texts& train) {
  const std::int64_t batch = 32, passes = 5;
  auto t0 = std::chrono::steady_clock::now();
  const Texts again = read_reviews(data / "train");
  const double read = double(again.x.dim(0)) / seconds_since(t0);
  const std::int64_t n = again.x.dim(0) * passes;
  k::ArrayDataAdapter batches(k::Batch{{again.x}, {again.y}, {}}, batch, true);
  std::vector<k::Tensor> texts;
  t0 = std::chrono::steady_clock::now();
  for (std::int64_t p = 0; p < passes; ++p) {
    batches.start_epoch();
    while (auto b = batches.next()) texts.push_back(b->x.front());
  }
  const double pipeline = double(n) / seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  for (const auto& t : texts) (void)vectorize(t, false);
  const double preprocessing = double(n) / seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  model.fit(train.x, train.y, {.batch_size = batch, .epochs = int(passes), .verbose = 0});
  const double training = double(n) / seconds_since(t0);
  std::printf("text_classification_read_files_samples_per_sec: %.0f\n"
              "text_classification_pipeline_samples_per_sec: %.0f\n"
              "text_classification_text_vectorization_samples_per_sec: %.0f\n"
              "text_classification_train_samples_per_sec: %.0f\n"
              "text_classification_pipeline_over_training: %.1f\n"
              "text_classification_text_vectorization_share_of_step: %.2f\n",
              read, pipeline, preprocessing, training, pipeline / training, training / preprocessing);
}

}  // namespace

int main(int argc, char** argv) try {
  fs::path data = "text_reviews";
  int epochs = 6;
  bool benchmark = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
    else if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--bench")) benchmark = true;
    else throw k::ValueError(std::string("unknown argument ") + argv[i] + " (use --data DIR, --epochs N, --bench)");
  }
  write_reviews(data, "train", 2000, 1);
  write_reviews(data, "test", 500, 2);
  const Texts train = read_reviews(data / "train"), test = read_reviews(data / "test");
  std::printf("%lld training and %lld test reviews from %s\n", (long long)train.x.dim(0), (long long)test.x.dim(0),
              data.c_str());

  k::utils::set_random_seed(3);
  auto vectorize = std::make_shared<k::layers::TextVectorization>(
      k::layers::TextVectorizationOptions{.max_tokens = 2000, .output_sequence_length = 24});
  vectorize->adapt(train.x);
  std::printf("vocabulary: %lld tokens, the most frequent:", (long long)vectorize->vocabulary_size());
  const auto vocab = vectorize->get_vocabulary();
  for (std::size_t i = 2; i < std::min<std::size_t>(vocab.size(), 8); ++i) std::printf(" %s", vocab[i].c_str());
  std::printf("\n");

  k::KerasTensor text = k::Input({1}, {.name = "text", .dtype = k::DType::string});
  k::KerasTensor h = (*vectorize)(text);
  h = k::layers::Embedding(2000, 16)(h);
  h = k::layers::GlobalAveragePooling1D()(h);
  h = k::layers::Dense(16, {.activation = "relu"})(h);
  k::Model model(text, k::layers::Dense(1, {.activation = "sigmoid"})(h), "review_classifier");
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-2}),
                 .loss = "binary_crossentropy",
                 .metrics = {"accuracy"}});
  if (benchmark) {
    bench(data, *vectorize, model, train);
    return 0;
  }
  model.fit(train.x, train.y, {.batch_size = 32, .epochs = epochs, .verbose = 2});
  const auto logs = model.evaluate(test.x, test.y, {.verbose = 0});
  std::printf("test accuracy: %.4f\n", logs.at("accuracy"));

  const std::string path = "review_classifier.keras";
  model.save(path);
  auto loaded = k::models::load_model(path);
  const std::vector<std::string> sentences = {"A wonderful, moving film!", "Dull and tedious... really awful.",
                                              "The cast was charming but the plot was weak"};
  const k::Tensor raw = k::Tensor::from_vector<std::string>(sentences, {3, 1});
  const auto p = loaded->predict(raw, {.verbose = 0}).to_vector<float>();
  const auto q = model.predict(raw, {.verbose = 0}).to_vector<float>();
  for (std::size_t i = 0; i < sentences.size(); ++i)
    std::printf("%-48s P(positive) = %.3f (before saving: %.3f)\n", sentences[i].c_str(), p[i], q[i]);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
