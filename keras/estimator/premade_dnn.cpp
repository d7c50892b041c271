// DNNClassifier and DNNRegressor (see premade_dnn.hpp).
#include "keras/estimator/premade_dnn.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/estimator/head.hpp"
#include "layers/core/dense.hpp"
#include "layers/core/dropout.hpp"
#include "layers/normalization/batch_normalization.hpp"
#include "optimizers/adagrad.hpp"

namespace keras::estimator {
namespace {

void check(const DNNOptions& o, const std::string& who) {
  if (o.hidden_units.empty()) throw ValueError(who + ": hidden_units must not be empty");
  for (auto u : o.hidden_units)
    if (u < 1) throw ValueError(fmt::format("{}: hidden_units must be positive, got {}", who, u));
  if (o.dropout && (*o.dropout < 0 || *o.dropout >= 1)) throw ValueError(who + ": dropout must be in [0, 1)");
  sorted_columns(o.feature_columns, who);  // throws for none or duplicates
}

EstimatorOptions estimator_options(const DNNOptions& o) { return {.model_dir = o.model_dir, .config = o.config}; }

}  // namespace

optimizers::OptimizerRef default_dnn_optimizer() { return optimizers::Adagrad({.learning_rate = 0.05}); }

KerasTensor dnn_logits(const Features& features, const DNNOptions& o, std::int64_t units, const std::string& prefix) {
  KerasTensor net = input_layer(features, o.feature_columns, {.name = prefix + "input_from_feature_columns"});
  for (std::size_t i = 0; i < o.hidden_units.size(); ++i) {
    net = layers::Dense(o.hidden_units[i], {.activation = o.activation_fn, .name = fmt::format("{}hiddenlayer_{}", prefix, i)})(net);
    if (o.dropout) net = layers::Dropout(*o.dropout)(net);
    if (o.batch_norm) net = layers::BatchNormalization({.momentum = 0.999})(net);
  }
  return layers::Dense(units, {.name = prefix + "logits"})(net);
}

DNNClassifier::DNNClassifier(DNNOptions options)
    : Estimator(
          [o = (check(options, "DNNClassifier"), options)](const Features& f, const KerasTensor&, ModeKeys mode, const json&) {
            return classification_head(mode, dnn_logits(f, o, logits_dimension(o.n_classes), "dnn_"), o.n_classes,
                                       o.optimizer.value_or(default_dnn_optimizer()));
          },
          estimator_options(options)) {}

DNNRegressor::DNNRegressor(DNNOptions options)
    : Estimator(
          [o = (check(options, "DNNRegressor"), options)](const Features& f, const KerasTensor&, ModeKeys mode, const json&) {
            if (o.label_dimension < 1) throw ValueError("DNNRegressor: label_dimension must be >= 1");
            return regression_head(mode, dnn_logits(f, o, o.label_dimension, "dnn_"),
                                   o.optimizer.value_or(default_dnn_optimizer()));
          },
          estimator_options(options)) {}

}  // namespace keras::estimator
