#pragma once
// LinearClassifier and LinearRegressor (tf.estimator's): a weighted sum of the feature columns (numeric
// values, categorical columns as their one/multi-hot encodings, as tf's LinearModel sums their weights)
// plus a bias, weights starting at zero, and a head (head.hpp). Default optimizer
// Ftrl(learning_rate = min(0.2, 1 / sqrt(number of columns))), as tf.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/estimator/base_estimator.hpp"

namespace keras::estimator {

struct LinearOptions {
  /// Any columns (categorical ones need no wrapping).
  std::vector<Column> feature_columns{};
  std::string model_dir{};
  std::int64_t n_classes = 2;
  std::int64_t label_dimension = 1;
  std::optional<optimizers::OptimizerRef> optimizer{};
  RunConfig config{};
};

/// The linear part: [batch, units] from the columns, in layers named `<prefix>model` and `<prefix>logits` ("linear_").
KerasTensor linear_logits(const Features& features, const std::vector<Column>& columns, std::int64_t units,
                          const std::string& prefix);
optimizers::OptimizerRef default_linear_optimizer(std::size_t n_columns);

class LinearClassifier : public Estimator {
 public:
  explicit LinearClassifier(LinearOptions options);
};

class LinearRegressor : public Estimator {
 public:
  explicit LinearRegressor(LinearOptions options);
};

}  // namespace keras::estimator
