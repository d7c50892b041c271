#include "metrics/categorical_accuracy.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor categorical_accuracy(const Tensor& y_true, const Tensor& y_pred) {
  if (y_pred.ndim() == 0 || y_true.shape() != y_pred.shape())
    throw ValueError("categorical_accuracy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) +
                     "; targets must be one-hot with the shape of the predictions. For integer class ids use "
                     "sparse_categorical_accuracy");
  return ops::cast(ops::equal(ops::argmax(y_true, -1), ops::argmax(y_pred, -1)), DType::float32);  // as Keras: a float
}

KERAS_FIELDS(CategoricalAccuracyOptions)

std::shared_ptr<Metric> CategoricalAccuracy::from_config(const json& config) {
  return metric_from_config<CategoricalAccuracy, CategoricalAccuracyOptions>(config);
}

namespace {
const bool registered = register_class<Metric, CategoricalAccuracy>("CategoricalAccuracy", {"categorical_accuracy"});
}

}  // namespace keras::metrics
