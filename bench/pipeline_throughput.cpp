// Dataset pipeline throughput on Fashion-MNIST (prints "elements_per_sec: N"), against what the seed CNN
// consumes in training; parallel map with 2 threads vs 1 on a CPU-bound function; and fit on a
// prefetching Dataset vs fit on the same arrays; CSV reading, make_csv_dataset's batched reader against
// CsvDataset's records batched, in rows per second.
//   build/bin/pipeline_throughput [--threads 2] [--part all|pipeline|map|fit|csv]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <keras/keras.hpp>

#include "data/image.hpp"

namespace k = keras;
namespace d = keras::data;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Elements per second of one full pass over ds (whose elements are batches of `batch` elements).
double pass_rate(const d::Dataset& ds) {
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t n = 0;
  for (const d::Element& e : ds) n += (e.is_leaf() ? e : e[0]).leaf().shape()[0];
  return double(n) / seconds_since(t0);
}

k::Sequential seed_cnn() {
  return k::Sequential({k::layers::Input({28, 28, 1}), k::layers::Conv2D(32, {5, 5}, {.activation = "relu"}),
                        k::layers::MaxPooling2D({2, 2}), k::layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
                        k::layers::MaxPooling2D({2, 2}), k::layers::Flatten(),
                        k::layers::Dense(1024, {.activation = "relu"}), k::layers::Dropout(0.5), k::layers::Dense(10)});
}

k::CompileOptions classifier() {
  return {.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
          .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true})};
}

// A CSV of `rows` rows shaped like examples/structured_data's (age, income, city, rooms, label).
std::string write_csv(int rows) {
  const std::string path = (std::filesystem::temp_directory_path() / "pipeline_throughput.csv").string();
  const char* cities[] = {"paris", "rome", "oslo", "lima", "cairo", "quito"};
  std::ofstream out(path);
  out << "age,income,city,rooms,buys\n";
  for (int i = 0; i < rows; ++i)
    out << 20 + (i * 37) % 50 + 0.125 * (i % 7) << "," << 30 + (i * 53) % 60 + 0.37 * (i % 11) << "," << cities[i % 6] << ","
        << 1 + i % 5 << "," << (i * 7) % 3 % 2 << "\n";
  return path;
}

// A CPU-bound element function: ~0.5 ms of scalar math.
d::Element busy(const d::Element& e) {
  double acc = double(e.leaf().tensor().item());
  for (int i = 0; i < 60000; ++i) acc = std::sin(acc) + 1.0;
  return d::Element(k::Tensor::scalar(float(acc)));
}
}  // namespace

int main(int argc, char** argv) try {
  int threads = 2;
  std::string part = "all";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--threads") threads = std::stoi(argv[i + 1]);
    else if (flag == "--part") part = argv[i + 1];
    else throw std::invalid_argument("unknown flag " + flag + " (use --threads, --part)");
  }
  auto wanted = [&](const char* p) { return part == "all" || part == p; };
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  k::utils::set_num_threads(threads);
  k::utils::set_random_seed(1);
  if (wanted("csv")) {
  // 4. CSV rows per second: make_csv_dataset (parsed into one column per batch) against CsvDataset's records
  // (one scalar per field) batched, 200,000 rows in batches of 64, in file order. Best of 3 passes each.
  const int rows = 200000;
  const std::string path = write_csv(rows);
  const auto batched = d::make_csv_dataset(path, 64, {.label_name = "buys", .num_epochs = 1, .shuffle = false});
  const auto records = d::CsvDataset({path}, {0.0f, 0.0f, "", 0, 0}, {.header = true}).batch(64).prefetch(d::AUTOTUNE);
  auto rows_per_sec = [](const d::Dataset& ds) {
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t n = 0;
    for (const d::Element& e : ds) n += e.flatten().front().shape()[0];
    return double(n) / seconds_since(t0);
  };
  double best_batched = 0, best_records = 0;
  for (int run = 0; run < 3; ++run) {
    best_batched = std::max(best_batched, rows_per_sec(batched));
    best_records = std::max(best_records, rows_per_sec(records));
  }
  std::printf("csv_batched_rows_per_sec: %.0f\ncsv_records_rows_per_sec: %.0f\ncsv_batched_us_per_row: %.3f\n"
              "csv_records_us_per_row: %.3f\n", best_batched, best_records, 1e6 / best_batched, 1e6 / best_records);
  std::filesystem::remove(path);
  }
  if (part == "csv") return 0;
  auto [train, test] = k::datasets::fashion_mnist::load_data();

  if (wanted("pipeline")) {
  // 1. The seed's input pipeline.
  auto normalize_and_flip = [](const d::Element& e) {
    k::Tensor img = k::image::convert_image_dtype(e[0].leaf().tensor().reshape({28, 28, 1}), k::DType::float32);
    return d::tuple({k::image::random_flip_left_right(img), e[1]});
  };
  auto pipeline = d::Dataset::from_tensor_slices(train.x, train.y)
                      .map(normalize_and_flip, {.num_parallel_calls = d::AUTOTUNE})
                      .shuffle(10000)
                      .batch(32)
                      .prefetch(d::AUTOTUNE);
  pass_rate(pipeline.take(100));  // warm up
  const double rate = pass_rate(pipeline);

  // What the seed CNN consumes in training (batch 32), over 60 batches after a warm-up.
  k::Sequential cnn = seed_cnn();
  cnn.compile(classifier());
  k::Tensor cx = (train.x.slice(0, 30 * 32 + 320) / 255.f).reshape({-1, 28, 28, 1});
  k::Tensor cy = train.y.slice(0, 30 * 32 + 320);
  cnn.fit(cx.slice(0, 320), cy.slice(0, 320), {.batch_size = 32, .verbose = 0});
  const auto t0 = std::chrono::steady_clock::now();
  cnn.fit(cx.slice(320, cx.dim(0)), cy.slice(320, cy.dim(0)), {.batch_size = 32, .verbose = 0});
  const double cnn_rate = 30 * 32 / seconds_since(t0);
  std::printf("elements_per_sec: %.0f\ncnn_train_samples_per_sec: %.0f\npipeline_over_cnn: %.1fx\n", rate, cnn_rate,
              rate / cnn_rate);

  }
  if (wanted("map")) {
  // 2. Parallel map, 2 threads vs 1, on a CPU-bound function.
  auto ints = d::Dataset::range(400);
  auto one = ints.map(busy, {.num_parallel_calls = 1}).batch(8);
  auto two = ints.map(busy, {.num_parallel_calls = 2}).batch(8);
  pass_rate(two.take(5));
  const double r1 = pass_rate(one), r2 = pass_rate(two);
  std::printf("map_1_thread_elements_per_sec: %.0f\nmap_2_threads_elements_per_sec: %.0f\nmap_speedup_2_vs_1: %.2fx\n", r1,
              r2, r2 / r1);

  }
  if (wanted("fit")) {
  // 3. fit on a prefetching Dataset vs fit on the same arrays (the seed CNN, batch 32, 1920 samples;
  // both shuffle every epoch). Best of 3 runs each, interleaved.
  const std::int64_t n = 1920;
  k::Tensor fx = (train.x.slice(0, n) / 255.f).reshape({-1, 28, 28, 1});
  k::Tensor fy = train.y.slice(0, n);
  auto ds = d::Dataset::from_tensor_slices(fx, fy).shuffle(n).batch(32).prefetch(d::AUTOTUNE);
  double best_arrays = 1e30, best_dataset = 1e30;
  for (int run = 0; run < 3; ++run) {
    k::utils::set_random_seed(2);
    k::Sequential a = seed_cnn();
    a.compile(classifier());
    a.fit(fx.slice(0, 64), fy.slice(0, 64), {.batch_size = 32, .verbose = 0});
    auto t0 = std::chrono::steady_clock::now();
    a.fit(fx, fy, {.batch_size = 32, .epochs = 1, .verbose = 0});
    best_arrays = std::min(best_arrays, seconds_since(t0));
    k::utils::set_random_seed(2);
    k::Sequential b = seed_cnn();
    b.compile(classifier());
    b.fit(fx.slice(0, 64), fy.slice(0, 64), {.batch_size = 32, .verbose = 0});
    t0 = std::chrono::steady_clock::now();
    b.fit(ds, {.epochs = 1, .verbose = 0});
    best_dataset = std::min(best_dataset, seconds_since(t0));
  }
  std::printf("fit_arrays_seconds: %.3f\nfit_dataset_seconds: %.3f\nfit_dataset_over_arrays: %.3f\n", best_arrays,
              best_dataset, best_dataset / best_arrays);
  }
} catch (const std::exception& e) {
  std::fprintf(stderr, "pipeline_throughput: %s\n", e.what());
  return 1;
}
