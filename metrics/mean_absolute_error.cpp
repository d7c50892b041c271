#include "metrics/mean_absolute_error.hpp"

#include "keras/json.hpp"
#include "losses/mean_absolute_error.hpp"

namespace keras::metrics {

MeanAbsoluteError::MeanAbsoluteError(MeanAbsoluteErrorOptions options)
    : MeanMetricWrapper(losses::mean_absolute_error, options.name, "MeanAbsoluteError") {}

std::shared_ptr<Metric> MeanAbsoluteError::from_config(const json& config) {
  return std::make_shared<MeanAbsoluteError>(MeanAbsoluteErrorOptions{.name = config.value("name", "mean_absolute_error")});
}

namespace {
const bool registered = register_class<Metric, MeanAbsoluteError>("MeanAbsoluteError", {"mean_absolute_error", "mae", "MAE"});
}

}  // namespace keras::metrics
