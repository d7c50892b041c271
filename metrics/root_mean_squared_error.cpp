#include "metrics/root_mean_squared_error.hpp"

#include <cmath>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss.hpp"

namespace keras::metrics {

double RootMeanSquaredError::result() const { return std::sqrt(squared_errors_.result()); }

void RootMeanSquaredError::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  const Tensor t = losses::match_target(y_true, y_pred, "RootMeanSquaredError");
  squared_errors_.update(ops::square(ops::subtract(y_pred, t)), sample_weight);
}

std::shared_ptr<Metric> RootMeanSquaredError::from_config(const json& config) {
  return std::make_shared<RootMeanSquaredError>(
      RootMeanSquaredErrorOptions{.name = config.value("name", "root_mean_squared_error")});
}

namespace {
const bool registered =
    register_class<Metric, RootMeanSquaredError>("RootMeanSquaredError", {"root_mean_squared_error"});
}

}  // namespace keras::metrics
