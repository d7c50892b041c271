#include "metrics/mean_absolute_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "losses/mean_absolute_error.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

MeanAbsoluteError::MeanAbsoluteError(MeanAbsoluteErrorOptions options)
    : MeanMetricWrapper(losses::mean_absolute_error, options.name, "MeanAbsoluteError") {}

KERAS_FIELDS(MeanAbsoluteErrorOptions)

std::shared_ptr<Metric> MeanAbsoluteError::from_config(const json& config) {
  return metric_from_config<MeanAbsoluteError, MeanAbsoluteErrorOptions>(config);
}

namespace {
const bool registered = register_class<Metric, MeanAbsoluteError>("MeanAbsoluteError", {"mean_absolute_error", "mae", "MAE"});
}

}  // namespace keras::metrics
