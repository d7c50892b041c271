#pragma once
// DNNLinearCombinedClassifier (tf.estimator's "wide and deep"): the logits of a linear model on
// linear_feature_columns plus those of a DNN on dnn_feature_columns, under a classification head.
// Deviation: tf trains the two parts with their own optimizers (Ftrl and Adagrad); here one optimizer
// (dnn_optimizer, default Adagrad(0.05)) trains both, as one compiled Keras model has one optimizer.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/estimator/base_estimator.hpp"

namespace keras::estimator {

struct DNNLinearCombinedOptions {
  std::string model_dir{};
  std::vector<Column> linear_feature_columns{};
  std::vector<Column> dnn_feature_columns{};
  std::vector<std::int64_t> dnn_hidden_units{};
  std::string dnn_activation_fn = "relu";
  std::optional<double> dnn_dropout{};
  std::optional<optimizers::OptimizerRef> dnn_optimizer{};
  std::int64_t n_classes = 2;
  RunConfig config{};
};

class DNNLinearCombinedClassifier : public Estimator {
 public:
  explicit DNNLinearCombinedClassifier(DNNLinearCombinedOptions options);
};

}  // namespace keras::estimator
