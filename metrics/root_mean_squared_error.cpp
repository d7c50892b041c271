#include "metrics/root_mean_squared_error.hpp"

#include <cmath>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

double RootMeanSquaredError::result() const { return std::sqrt(squared_errors_.result()); }

void RootMeanSquaredError::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  const Tensor t = losses::match_target(y_true, y_pred, "RootMeanSquaredError");
  squared_errors_.update(ops::square(ops::subtract(y_pred, t)), sample_weight);
}

KERAS_FIELDS(RootMeanSquaredErrorOptions)

std::shared_ptr<Metric> RootMeanSquaredError::from_config(const json& config) {
  return metric_from_config<RootMeanSquaredError, RootMeanSquaredErrorOptions>(config);
}

namespace {
const bool registered =
    register_class<Metric, RootMeanSquaredError>("RootMeanSquaredError", {"root_mean_squared_error"});
}

}  // namespace keras::metrics
