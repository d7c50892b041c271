#include "metrics/sparse_categorical_accuracy.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor sparse_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  if (y_pred.ndim() == 0)
    throw ValueError("sparse_categorical_accuracy: y_pred must have a class axis, got a scalar");
  const Shape row_shape(y_pred.shape().begin(), y_pred.shape().end() - 1);
  const bool row_shaped = y_true.shape() == row_shape;
  const bool column_shaped = y_true.ndim() == y_pred.ndim() && y_true.dim(-1) == 1;
  if (!row_shaped && !(column_shaped && y_true.size() == shape_size(row_shape)))
    throw ValueError("sparse_categorical_accuracy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) + "; expected one class id per "
                     "prediction row, shaped " + shape_str(row_shape) + ". For one-hot targets use categorical_accuracy");
  Tensor labels = y_true.reshape(row_shape).astype(DType::float32);
  return ops::cast(ops::equal(labels, ops::argmax(y_pred, -1)), DType::float32);  // as Keras: a float
}

KERAS_FIELDS(SparseCategoricalAccuracyOptions)

std::shared_ptr<Metric> SparseCategoricalAccuracy::from_config(const json& config) {
  return metric_from_config<SparseCategoricalAccuracy, SparseCategoricalAccuracyOptions>(config);
}

namespace {
const bool registered = register_class<Metric, SparseCategoricalAccuracy>("SparseCategoricalAccuracy",
                                                                         {"sparse_categorical_accuracy"});
}

}  // namespace keras::metrics
