#include "metrics/binary_accuracy.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor binary_accuracy(const Tensor& y_true, const Tensor& y_pred, float threshold) {
  Tensor t = y_true;
  // Keras's squeeze_or_expand_dimensions: (N,) against (N, 1), either way round.
  if ((y_pred.ndim() > 0 && y_true.ndim() + 1 == y_pred.ndim() && y_pred.dim(-1) == 1) ||
      (y_true.ndim() > 0 && y_true.ndim() == y_pred.ndim() + 1 && y_true.dim(-1) == 1))
    t = y_true.reshape(y_pred.shape());
  if (t.shape() != y_pred.shape())
    throw ValueError("binary_accuracy: y_true of shape " + shape_str(y_true.shape()) + " does not match y_pred of shape " +
                     shape_str(y_pred.shape()) + "; give one 0/1 target per prediction");
  Tensor predicted = ops::greater(y_pred, Tensor::scalar(threshold));
  Tensor matches = ops::cast(ops::equal(t, ops::cast(predicted, DType::float32)), DType::float32);  // as Keras: floats
  return y_pred.ndim() == 0 ? matches : ops::mean(matches, {-1});
}

BinaryAccuracy::BinaryAccuracy(BinaryAccuracyOptions options)
    : MeanMetricWrapper(
          [threshold = static_cast<float>(options.threshold)](const Tensor& y_true, const Tensor& y_pred) {
            return binary_accuracy(y_true, y_pred, threshold);
          },
          options.name, "BinaryAccuracy"),
      options_(std::move(options)) {}

KERAS_FIELDS(BinaryAccuracyOptions, threshold)

json BinaryAccuracy::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> BinaryAccuracy::from_config(const json& config) {
  return metric_from_config<BinaryAccuracy, BinaryAccuracyOptions>(config);
}

namespace {
const bool registered = register_class<Metric, BinaryAccuracy>("BinaryAccuracy", {"binary_accuracy"});
}

}  // namespace keras::metrics
