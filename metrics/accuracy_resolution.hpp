#pragma once
// Resolution of compile() metric strings, as Keras 2's compile_utils does: "accuracy" / "acc" and
// "crossentropy" / "ce" pick their binary, sparse or categorical variant from the loss and the shapes.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

/// The metric a compile() string names, for targets and predictions of the given shapes.
/// "accuracy"/"acc": binary when y_pred's last dimension is 1 or the loss is BinaryCrossentropy; sparse
/// when y_true has a lower rank than y_pred, or a last dimension of 1 while y_pred's is larger;
/// categorical otherwise. "crossentropy"/"ce" choose between the three crossentropies the same way.
/// Any other string goes to Metric::get. The metric is named as written ("accuracy", "mae"), except
/// for class names ("MeanAbsoluteError"), which keep the class's default name, as in Keras.
std::shared_ptr<Metric> resolve_metric(const std::string& identifier, const Shape& y_true_shape,
                                       const Shape& y_pred_shape, const std::string& loss_class_name);

}  // namespace keras::metrics
