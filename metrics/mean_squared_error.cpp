#include "metrics/mean_squared_error.hpp"

#include "keras/json.hpp"
#include "losses/mean_squared_error.hpp"

namespace keras::metrics {

MeanSquaredError::MeanSquaredError(MeanSquaredErrorOptions options)
    : MeanMetricWrapper(losses::mean_squared_error, options.name, "MeanSquaredError") {}

std::shared_ptr<Metric> MeanSquaredError::from_config(const json& config) {
  return std::make_shared<MeanSquaredError>(MeanSquaredErrorOptions{.name = config.value("name", "mean_squared_error")});
}

namespace {
const bool registered = register_class<Metric, MeanSquaredError>("MeanSquaredError", {"mean_squared_error", "mse", "MSE"});
}

}  // namespace keras::metrics
