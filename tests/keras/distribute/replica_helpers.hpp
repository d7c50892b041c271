#pragma once
// Helpers of the tests launched with `mpirun -np N`: a small model without dropout, random data drawn
// from a fixed seed, and comparisons across ranks.
#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "keras/distribute/distribute.hpp"
#include "keras/distribute/mpi_runtime.hpp"
#include "keras/keras.hpp"

namespace keras_test {

namespace k = keras;

inline int mpi_rank() {
  k::distribute::mpi::world();  // initializes MPI when no strategy has yet
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/// A small CNN with no dropout (so every replica computes what one process would), built from the seed.
inline k::Sequential small_cnn(std::uint64_t seed, int dense_units = 8) {
  k::utils::set_random_seed(seed);
  return k::Sequential({k::layers::Input({6, 6, 1}), k::layers::Conv2D(4, {3, 3}, {.activation = "relu"}),
                        k::layers::Flatten(), k::layers::Dense(dense_units, {.activation = "relu"}), k::layers::Dense(3)});
}

inline void compile_adam(k::Sequential& model, double learning_rate = 1e-2) {
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = learning_rate}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});
}

struct Data {
  k::Tensor x, y;
};

/// `n` random images and labels (the labels depend on the images, so there is something to learn).
inline Data labelled_images(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<float> normal;
  std::vector<float> xs(static_cast<std::size_t>(n * 36));
  std::vector<std::int64_t> ys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    float sum = 0;
    for (int j = 0; j < 36; ++j) sum += xs[static_cast<std::size_t>(i * 36 + j)] = normal(gen);
    ys[static_cast<std::size_t>(i)] = sum < -2.f ? 0 : sum < 2.f ? 1 : 2;
  }
  return {k::Tensor::from_vector(xs, {n, 6, 6, 1}), k::Tensor::from_vector(ys, {n})};
}

inline std::vector<float> flat_weights(const k::Model& model) {
  std::vector<float> out;
  for (const auto& w : model.get_weights())
    for (float v : w.to_vector<float>()) out.push_back(v);
  return out;
}

inline double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, double(std::abs(a[i] - b[i])));
  return m;
}

/// The largest difference between this rank's values and the chief's (0 on every rank when equal).
inline double max_diff_from_chief(std::vector<float> values) {
  std::vector<float> chief = values;
  int n = static_cast<int>(values.size());
  MPI_Bcast(chief.data(), n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  double mine = max_abs_diff(values, chief), worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/// A folder name chosen by the chief, the same on every rank (the chief creates it).
inline std::string shared_temp_dir(const std::string& name) {
  char buffer[512] = {};
  if (mpi_rank() == 0) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("kerascpp_" + name + "_" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
    path.copy(buffer, sizeof(buffer) - 1);
  }
  MPI_Bcast(buffer, sizeof(buffer), MPI_CHAR, 0, MPI_COMM_WORLD);
  return buffer;
}

}  // namespace keras_test
