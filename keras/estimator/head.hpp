#pragma once
// The heads of the premade Estimators (tf.estimator's MultiClassHead, BinaryClassHead, RegressionHead):
// from logits to predictions, loss and metrics.
//   classification, n_classes > 2: predictions logits, probabilities (softmax), class_ids (argmax);
//     loss sparse softmax cross-entropy of integer labels; metric accuracy.
//   classification, n_classes == 2: logits [batch, 1]; predictions logits, logistic, class_ids
//     (logit > 0); loss sigmoid cross-entropy; metrics accuracy, auc, auc_precision_recall.
//   regression: predictions "predictions" [batch, label_dimension]; loss mean squared error.
#include <cstdint>

#include "keras/estimator/estimator_spec.hpp"

namespace keras::estimator {

/// The logits width of a classification head: 1 for two classes, n_classes otherwise.
std::int64_t logits_dimension(std::int64_t n_classes);
EstimatorSpec classification_head(ModeKeys mode, const KerasTensor& logits, std::int64_t n_classes,
                                  const optimizers::OptimizerRef& optimizer);
EstimatorSpec regression_head(ModeKeys mode, const KerasTensor& predictions, const optimizers::OptimizerRef& optimizer);

}  // namespace keras::estimator
