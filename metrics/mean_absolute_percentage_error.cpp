#include "metrics/mean_absolute_percentage_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred) {
  const Tensor t = losses::match_target(y_true, y_pred, "mean_absolute_percentage_error");
  const Tensor denom = ops::maximum(ops::abs(t), Tensor::scalar(1e-7f));
  return ops::mean(ops::abs(ops::divide(ops::subtract(t, y_pred), denom)), {-1}) * 100.f;
}

KERAS_FIELDS(MeanAbsolutePercentageErrorOptions)

std::shared_ptr<Metric> MeanAbsolutePercentageError::from_config(const json& config) {
  return metric_from_config<MeanAbsolutePercentageError, MeanAbsolutePercentageErrorOptions>(config);
}

namespace {
const bool registered = register_class<Metric, MeanAbsolutePercentageError>(
    "MeanAbsolutePercentageError", {"mean_absolute_percentage_error", "mape", "MAPE"});
}

}  // namespace keras::metrics
