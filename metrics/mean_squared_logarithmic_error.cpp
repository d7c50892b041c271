#include "metrics/mean_squared_logarithmic_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred) {
  const Tensor t = losses::match_target(y_true, y_pred, "mean_squared_logarithmic_error");
  const Tensor eps = Tensor::scalar(1e-7f);
  const Tensor first = ops::log(ops::maximum(y_pred, eps) + 1.f);
  const Tensor second = ops::log(ops::maximum(t, eps) + 1.f);
  return ops::mean(ops::square(ops::subtract(first, second)), {-1});
}

KERAS_FIELDS(MeanSquaredLogarithmicErrorOptions)

std::shared_ptr<Metric> MeanSquaredLogarithmicError::from_config(const json& config) {
  return metric_from_config<MeanSquaredLogarithmicError, MeanSquaredLogarithmicErrorOptions>(config);
}

namespace {
const bool registered = register_class<Metric, MeanSquaredLogarithmicError>(
    "MeanSquaredLogarithmicError", {"mean_squared_logarithmic_error", "msle", "MSLE"});
}

}  // namespace keras::metrics
