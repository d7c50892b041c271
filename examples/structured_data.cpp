// Structured data from a CSV file: numeric, categorical-string and integer columns, each preprocessed inside
// the model, as Keras's "structured data classification" guide does it.
//   age, income (float)  → Normalization (adapted on the CSV)
//   city (string)        → StringLookup (adapted) → one_hot, and Hashing(16) → one_hot
//   rooms (integer)      → IntegerLookup (adapted) → one_hot
//   city × rooms         → HashedCrossing(32) → one_hot
//   concatenated → Dense(16, relu) → Dropout(0.2) → Dense(1, sigmoid)
// The CSV is written here (no download): 6,000 people whose label ("buys") follows a logistic rule on age,
// income, the city and the pair (city, rooms), so the crossing carries signal the single columns lack.
// It is read with data::make_csv_dataset (batches of {column: values}, label) and trained on as a Dataset;
// the model is saved as .keras and loaded back to score new raw rows.
// Usage: structured_data [--csv FILE] [--epochs N] [--bench]
// --bench measures, in one run, the input pipeline against what training consumes, in samples per second
// (see bench() below), and exits; bench/input_pipelines.sh runs it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include <keras/keras.hpp>

namespace k = keras;

namespace {

const std::vector<std::string> kCities = {"paris", "rome", "oslo", "lima", "cairo", "quito"};

void write_csv(const std::string& path, int rows) {
  if (std::filesystem::exists(path)) return;
  std::mt19937 gen(5);
  std::uniform_int_distribution<int> city(0, int(kCities.size()) - 1), rooms(1, 5);
  std::normal_distribution<double> age(45, 12), income(50, 15);
  std::uniform_real_distribution<double> u(0, 1);
  std::ofstream out(path);
  out << "age,income,city,rooms,buys\n";
  for (int i = 0; i < rows; ++i) {
    const double a = age(gen), m = income(gen);
    const int c = city(gen), r = rooms(gen);
    // City effects, and a pair effect: small flats sell in the first three cities, large ones elsewhere.
    const double city_effect = std::vector<double>{0.8, -0.4, 0.3, -0.9, 0.5, -0.3}[std::size_t(c)];
    const double pair_effect = ((c < 3) == (r <= 2)) ? 1.2 : -1.2;
    const double logit = 0.06 * (a - 45) + 0.05 * (m - 50) + city_effect + pair_effect;
    const int label = u(gen) < 1 / (1 + std::exp(-logit)) ? 1 : 0;
    out << a << "," << m << "," << kCities[std::size_t(c)] << "," << r << "," << label << "\n";
  }
}

// One column of the CSV's feature dicts, as [batch, 1] (the model's inputs have shape (1,)).
k::data::Element column(const k::data::Element& features, const std::string& name) {
  const k::Tensor t = features[name].leaf().tensor();
  return t.reshape({t.dim(0), 1});
}

// (No prefetch thread: a batch of 64 rows parses in about 15 us, less than handing it over between threads
// costs, and the parsed batches are cached after the first epoch.)
k::data::Dataset csv(const std::string& path, std::int64_t batch, bool shuffle) {
  return k::data::make_csv_dataset(path, batch, {.label_name = "buys", .num_epochs = 1, .shuffle = shuffle,
                                                 .shuffle_seed = 7, .prefetch_buffer_size = 0});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Samples per second of: the input pipeline fit iterates (make_csv_dataset parsing the rows, the map to the
// model's inputs, the cache and shuffle), over its first pass (the CSV is parsed) and over `passes` passes
// (the cache serves the later ones); the model's preprocessing layers on those batches (`preprocess`, the
// model up to the concatenation); and training (fit on the same Dataset for `passes` epochs, which includes
// both). Each is the best of 3 rounds, the three measured in turn in each round on a fresh pipeline (its
// first pass parses the CSV again), as a shared machine slows some milliseconds more than others.
// The pipeline must outrun training by 5x; the preprocessing layers' share of a step is printed too.
void bench(const std::function<k::data::Dataset()>& make_train, k::Model& preprocess, k::Model& model) {
  const int passes = 5;
  double first_pass = 0, pipeline = 0, preprocessing = 0, training = 0;
  for (int round = 0; round < 3; ++round) {
    const k::data::Dataset train = make_train();
    std::vector<std::vector<k::Tensor>> batches;
    auto t0 = std::chrono::steady_clock::now();
    std::int64_t n = 0;
    for (int p = 0; p < passes; ++p) {
      for (const k::data::Element& e : train) {
        std::vector<k::Tensor> x;
        for (const auto& column : e[0].children()) x.push_back(column.leaf().tensor());
        n += x.front().dim(0);
        batches.push_back(std::move(x));
      }
      if (p == 0) first_pass = std::max(first_pass, double(n) / seconds_since(t0));
    }
    pipeline = std::max(pipeline, double(n) / seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    for (const auto& x : batches) (void)preprocess.predict_on_batch(x);
    preprocessing = std::max(preprocessing, double(n) / seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    model.fit(train, {.epochs = passes, .verbose = 0});
    training = std::max(training, double(n) / seconds_since(t0));
  }
  std::printf("structured_data_pipeline_first_pass_samples_per_sec: %.0f\n"
              "structured_data_pipeline_samples_per_sec: %.0f\n"
              "structured_data_preprocessing_layers_samples_per_sec: %.0f\n"
              "structured_data_train_samples_per_sec: %.0f\n"
              "structured_data_pipeline_over_training: %.1f\n"
              "structured_data_first_pass_over_training: %.1f\n"
              "structured_data_preprocessing_share_of_step: %.2f\n",
              first_pass, pipeline, preprocessing, training, pipeline / training, first_pass / training,
              training / preprocessing);
}

}  // namespace

int main(int argc, char** argv) try {
  std::string path = "structured_data.csv";
  int epochs = 8;
  bool benchmark = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) path = argv[++i];
    else if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--bench")) benchmark = true;
    else throw k::ValueError(std::string("unknown argument ") + argv[i] + " (use --csv FILE, --epochs N, --bench)");
  }
  write_csv(path, 6000);
  k::utils::set_random_seed(4);
  const std::vector<std::string> names = {"age", "income", "city", "rooms"};
  // (features as a tuple in the order of `names`, each [batch, 1]; label [batch, 1])
  auto to_model = [names](const k::data::Element& e) {
    std::vector<k::data::Element> x;
    for (const auto& n : names) x.push_back(column(e[0], n));
    const k::Tensor y = e[1].leaf().tensor().astype(k::DType::float32);
    return k::data::tuple({k::data::tuple(x), y.reshape({y.dim(0), 1})});
  };
  const k::data::Dataset all = csv(path, 64, false).map(to_model);
  auto features_of = [](std::size_t i) {
    return [i](const k::data::Element& e) { return e[0][i]; };
  };

  // Preprocessing layers, adapted on the CSV's columns.
  auto age_norm = std::make_shared<k::layers::Normalization>();
  age_norm->adapt(all.map(features_of(0)));
  auto income_norm = std::make_shared<k::layers::Normalization>();
  income_norm->adapt(all.map(features_of(1)));
  auto city_lookup = std::make_shared<k::layers::StringLookup>(k::layers::StringLookupOptions{.output_mode = "one_hot"});
  city_lookup->adapt(all.map(features_of(2)));
  auto rooms_lookup = std::make_shared<k::layers::IntegerLookup>(k::layers::IntegerLookupOptions{.output_mode = "one_hot"});
  rooms_lookup->adapt(all.map(features_of(3)));
  std::printf("cities: %zu tokens with [UNK]; rooms: %zu\n", city_lookup->get_vocabulary().size(),
              rooms_lookup->get_vocabulary().size());

  k::KerasTensor age = k::Input({1}, {.name = "age"}), income = k::Input({1}, {.name = "income"});
  k::KerasTensor city = k::Input({1}, {.name = "city", .dtype = k::DType::string});
  k::KerasTensor rooms = k::Input({1}, {.name = "rooms", .dtype = k::DType::int32});
  k::KerasTensor h = k::layers::Concatenate()({
      (*age_norm)(age),
      (*income_norm)(income),
      (*city_lookup)(city),
      k::layers::Hashing(16, {.output_mode = "one_hot"})(city),
      (*rooms_lookup)(rooms),
      k::layers::HashedCrossing(32, {.output_mode = "one_hot"})({city, rooms}),
  });
  k::Model preprocess({age, income, city, rooms}, h, "preprocess");  // the same layers, up to the concatenation
  h = k::layers::Dense(16, {.activation = "relu"})(h);
  h = k::layers::Dropout(0.2)(h);
  k::Model model({age, income, city, rooms}, k::layers::Dense(1, {.activation = "sigmoid"})(h), "buyer");
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 5e-3}),
                 .loss = "binary_crossentropy",
                 .metrics = {"accuracy"}});
  // The first 5,000 rows train, the last 1,000 test (make_csv_dataset without shuffling keeps file order).
  // The parsed training batches are cached: the first epoch reads the CSV, the others read memory.
  auto make_train = [&all] { return all.take(5000 / 64).cache().shuffle(100, {.seed = 3}); };
  const auto train = make_train();
  const auto test = all.skip(5000 / 64);
  if (benchmark) {
    bench(make_train, preprocess, model);
    return 0;
  }
  model.fit(train, {.epochs = epochs, .verbose = 2});
  const auto logs = model.evaluate(test, {.verbose = 0});
  std::printf("test accuracy: %.4f\n", logs.at("accuracy"));

  model.save("structured_data.keras");
  auto loaded = k::models::load_model("structured_data.keras");
  const std::vector<k::Tensor> rows = {
      k::Tensor::from_vector<float>({60, 30}, {2, 1}), k::Tensor::from_vector<float>({70, 35}, {2, 1}),  // age, income
      k::Tensor::from_vector<std::string>({"paris", "lima"}, {2, 1}),
      k::Tensor::from_vector<std::int32_t>({1, 2}, {2, 1})};
  const auto p = loaded->predict(rows).to_vector<float>();
  const auto q = model.predict(rows).to_vector<float>();
  std::printf("60, 70k, paris, 1 room: P(buys) = %.3f (before saving: %.3f)\n", p[0], q[0]);
  std::printf("30, 35k, lima, 2 rooms: P(buys) = %.3f (before saving: %.3f)\n", p[1], q[1]);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
