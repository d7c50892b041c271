#include "metrics/accuracy.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

Tensor accuracy(const Tensor& y_true, const Tensor& y_pred) {
  const Tensor t = detail::match_rank(y_true, y_pred);
  if (t.shape() != y_pred.shape())
    throw ValueError("accuracy: y_true of shape " + shape_str(y_true.shape()) + " does not match y_pred of shape " +
                     shape_str(y_pred.shape()) + "; accuracy compares values one by one. For probabilities use "
                     "binary_accuracy, categorical_accuracy or sparse_categorical_accuracy");
  const std::vector<float> a = detail::float_values(t);
  std::vector<float> b = detail::float_values(y_pred);
  if (y_true.dtype() != DType::float32 && y_pred.dtype() == DType::float32)
    for (float& v : b) v = std::trunc(v);
  std::vector<float> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] == b[i] ? 1.f : 0.f;
  return Tensor::from_vector<float>(out, y_pred.shape());
}

KERAS_FIELDS(AccuracyOptions)

std::shared_ptr<Metric> Accuracy::from_config(const json& config) {
  return metric_from_config<Accuracy, AccuracyOptions>(config);
}

namespace {
const bool registered = register_class<Metric, Accuracy>("Accuracy", {"accuracy", "acc", "ACC"});
}

}  // namespace keras::metrics
