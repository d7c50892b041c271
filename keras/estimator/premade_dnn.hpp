#pragma once
// DNNClassifier and DNNRegressor (tf.estimator's): DenseFeatures of the feature columns, hidden Dense
// layers, a logits layer and a head (head.hpp). Default optimizer Adagrad(learning_rate=0.05), as tf.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/estimator/base_estimator.hpp"

namespace keras::estimator {

struct DNNOptions {
  std::vector<std::int64_t> hidden_units{};
  /// Dense columns (numeric, bucketized, indicator, embedding).
  std::vector<Column> feature_columns{};
  std::string model_dir{};
  /// Classifier: classes (labels 0..n-1); regressor: ignored.
  std::int64_t n_classes = 2;
  /// Regressor: outputs per example.
  std::int64_t label_dimension = 1;
  std::optional<optimizers::OptimizerRef> optimizer{};
  std::string activation_fn = "relu";
  /// Dropout rate after each hidden layer while training.
  std::optional<double> dropout{};
  bool batch_norm = false;
  RunConfig config{};
};

/// The network of a DNN estimator up to its `units` logits, in layers named <prefix>input_from_feature_columns,
/// <prefix>hiddenlayer_<i> and <prefix>logits (prefix "dnn_", tf's "dnn/" scope).
KerasTensor dnn_logits(const Features& features, const DNNOptions& options, std::int64_t units, const std::string& prefix);
/// tf's default DNN optimizer: Adagrad(learning_rate=0.05).
optimizers::OptimizerRef default_dnn_optimizer();

class DNNClassifier : public Estimator {
 public:
  explicit DNNClassifier(DNNOptions options);
};

class DNNRegressor : public Estimator {
 public:
  explicit DNNRegressor(DNNOptions options);
};

}  // namespace keras::estimator
