// LinearClassifier and LinearRegressor (see premade_linear.hpp).
#include "keras/estimator/premade_linear.hpp"

#include <algorithm>
#include <cmath>

#include "keras/estimator/head.hpp"
#include "layers/core/dense.hpp"
#include "optimizers/ftrl.hpp"

namespace keras::estimator {

optimizers::OptimizerRef default_linear_optimizer(std::size_t n_columns) {
  return optimizers::Ftrl({.learning_rate = std::min(0.2, 1.0 / std::sqrt(double(std::max<std::size_t>(n_columns, 1))))});
}

KerasTensor linear_logits(const Features& features, const std::vector<Column>& columns, std::int64_t units,
                          const std::string& prefix) {
  KerasTensor net = input_layer(features, columns, {.linear = true, .name = prefix + "model"});
  return layers::Dense(units, {.kernel_initializer = "zeros", .bias_initializer = "zeros", .name = prefix + "logits"})(net);
}

namespace {
LinearOptions checked(LinearOptions o, const std::string& who) {
  sorted_columns(o.feature_columns, who);
  return o;
}
}  // namespace

LinearClassifier::LinearClassifier(LinearOptions options)
    : Estimator(
          [o = checked(options, "LinearClassifier")](const Features& f, const KerasTensor&, ModeKeys mode, const json&) {
            return classification_head(mode, linear_logits(f, o.feature_columns, logits_dimension(o.n_classes), "linear_"),
                                       o.n_classes, o.optimizer.value_or(default_linear_optimizer(o.feature_columns.size())));
          },
          {.model_dir = options.model_dir, .config = options.config}) {}

LinearRegressor::LinearRegressor(LinearOptions options)
    : Estimator(
          [o = checked(options, "LinearRegressor")](const Features& f, const KerasTensor&, ModeKeys mode, const json&) {
            return regression_head(mode, linear_logits(f, o.feature_columns, o.label_dimension, "linear_"),
                                   o.optimizer.value_or(default_linear_optimizer(o.feature_columns.size())));
          },
          {.model_dir = options.model_dir, .config = options.config}) {}

}  // namespace keras::estimator
