#include "metrics/mean_squared_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "losses/mean_squared_error.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

MeanSquaredError::MeanSquaredError(MeanSquaredErrorOptions options)
    : MeanMetricWrapper(losses::mean_squared_error, options.name, "MeanSquaredError") {}

KERAS_FIELDS(MeanSquaredErrorOptions)

std::shared_ptr<Metric> MeanSquaredError::from_config(const json& config) {
  return metric_from_config<MeanSquaredError, MeanSquaredErrorOptions>(config);
}

namespace {
const bool registered = register_class<Metric, MeanSquaredError>("MeanSquaredError", {"mean_squared_error", "mse", "MSE"});
}

}  // namespace keras::metrics
