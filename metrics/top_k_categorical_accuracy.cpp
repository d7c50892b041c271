#include "metrics/top_k_categorical_accuracy.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

Tensor sparse_top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int k) {
  if (y_pred.ndim() == 0 || y_pred.dim(-1) == 0)
    throw ValueError("sparse_top_k_categorical_accuracy: y_pred must have a class axis, got shape " +
                     shape_str(y_pred.shape()));
  const std::int64_t classes = y_pred.dim(-1);
  const std::int64_t rows = y_pred.size() / classes;
  if (y_true.size() != rows)
    throw ValueError("sparse_top_k_categorical_accuracy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) +
                     "; expected one class id per prediction row. For one-hot targets use top_k_categorical_accuracy");
  const std::vector<float> ids = detail::float_values(y_true);
  const std::vector<float> p = detail::float_values(y_pred);
  std::vector<float> out(static_cast<std::size_t>(rows), 0.f);
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto target = static_cast<std::int64_t>(ids[static_cast<std::size_t>(r)]);  // truncates, as tf.cast
    if (target < 0 || target >= classes) continue;
    const float* row = p.data() + r * classes;
    const float score = row[target];
    if (!std::isfinite(score)) continue;
    int larger = 0;
    for (std::int64_t c = 0; c < classes; ++c) larger += row[c] > score;
    out[static_cast<std::size_t>(r)] = larger < k ? 1.f : 0.f;
  }
  return Tensor::from_vector<float>(out, y_true.shape());
}

Tensor top_k_categorical_accuracy(const Tensor& y_true, const Tensor& y_pred, int k) {
  if (y_pred.ndim() == 0 || y_true.shape() != y_pred.shape())
    throw ValueError("top_k_categorical_accuracy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) +
                     "; targets must be one-hot with the shape of the predictions. For integer class ids use "
                     "sparse_top_k_categorical_accuracy");
  return sparse_top_k_categorical_accuracy(ops::argmax(y_true, -1), y_pred, k);
}

TopKCategoricalAccuracy::TopKCategoricalAccuracy(TopKCategoricalAccuracyOptions options)
    : MeanMetricWrapper([k = options.k](const Tensor& t, const Tensor& p) { return top_k_categorical_accuracy(t, p, k); },
                        options.name, "TopKCategoricalAccuracy"),
      options_(std::move(options)) {}

KERAS_FIELDS(TopKCategoricalAccuracyOptions, k)

json TopKCategoricalAccuracy::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> TopKCategoricalAccuracy::from_config(const json& config) {
  return metric_from_config<TopKCategoricalAccuracy, TopKCategoricalAccuracyOptions>(config);
}

SparseTopKCategoricalAccuracy::SparseTopKCategoricalAccuracy(SparseTopKCategoricalAccuracyOptions options)
    : MeanMetricWrapper(
          [k = options.k](const Tensor& t, const Tensor& p) { return sparse_top_k_categorical_accuracy(t, p, k); },
          options.name, "SparseTopKCategoricalAccuracy"),
      options_(std::move(options)) {}

KERAS_FIELDS(SparseTopKCategoricalAccuracyOptions, k)

json SparseTopKCategoricalAccuracy::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> SparseTopKCategoricalAccuracy::from_config(const json& config) {
  return metric_from_config<SparseTopKCategoricalAccuracy, SparseTopKCategoricalAccuracyOptions>(config);
}

namespace {
const bool registered = register_class<Metric, TopKCategoricalAccuracy>("TopKCategoricalAccuracy",
                                                                       {"top_k_categorical_accuracy"});
const bool registered_sparse = register_class<Metric, SparseTopKCategoricalAccuracy>(
    "SparseTopKCategoricalAccuracy", {"sparse_top_k_categorical_accuracy"});
}  // namespace

}  // namespace keras::metrics
