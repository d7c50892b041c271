// Synthetic Iris-like data (see iris_like.hpp).
#include "keras/estimator/iris_like.hpp"

#include <array>
#include <random>

#include "keras/errors.hpp"

namespace keras::estimator {

const std::vector<std::string>& IrisLike::feature_names() {
  static const std::vector<std::string> names{"SepalLength", "SepalWidth", "PetalLength", "PetalWidth"};
  return names;
}

IrisLike make_iris_like(std::int64_t n, std::uint64_t seed) {
  if (n < 1) throw ValueError("make_iris_like: n must be positive");
  // Fisher's Iris: per class, the mean and standard deviation of each measurement (cm).
  static constexpr std::array<std::array<double, 4>, 3> mean{{{5.006, 3.428, 1.462, 0.246},
                                                              {5.936, 2.770, 4.260, 1.326},
                                                              {6.588, 2.974, 5.552, 2.026}}};
  static constexpr std::array<std::array<double, 4>, 3> stddev{{{0.352, 0.379, 0.174, 0.105},
                                                                {0.516, 0.314, 0.470, 0.198},
                                                                {0.636, 0.322, 0.552, 0.275}}};
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<float> values(static_cast<std::size_t>(n * 4));
  std::vector<std::int64_t> labels(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(i % 3);
    labels[i] = static_cast<std::int64_t>(c);
    for (std::size_t j = 0; j < 4; ++j) values[i * 4 + j] = static_cast<float>(mean[c][j] + stddev[c][j] * normal(gen));
  }
  IrisLike out;
  out.matrix = Tensor::from_vector(values, {n, 4});
  out.labels = Tensor::from_vector(labels, {n});
  for (std::size_t j = 0; j < 4; ++j) {
    std::vector<float> column(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) column[i] = values[i * 4 + j];
    out.features[IrisLike::feature_names()[j]] = Tensor::from_vector(column, {n});
  }
  return out;
}

}  // namespace keras::estimator
