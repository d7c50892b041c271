#pragma once
// Synthetic Iris-like data for the premade-Estimator walk-through and tests (the real Iris set is not
// shipped): three classes of four measurements (SepalLength, SepalWidth, PetalLength, PetalWidth), each
// drawn from a normal distribution with the per-class mean and standard deviation of Fisher's Iris data,
// the classes in turn (0 setosa, 1 versicolor, 2 virginica), reproducible from the seed.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::estimator {

struct IrisLike {
  /// Feature name -> float32 [n].
  std::map<std::string, Tensor> features;
  /// int64 [n] in 0..2.
  Tensor labels;
  /// The four features side by side, float32 [n, 4] (columns in feature_names order).
  Tensor matrix;
  static const std::vector<std::string>& feature_names();
};

IrisLike make_iris_like(std::int64_t n, std::uint64_t seed);

}  // namespace keras::estimator
