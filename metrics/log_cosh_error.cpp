#include "metrics/log_cosh_error.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "losses/loss.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Tensor logcosh(const Tensor& y_true, const Tensor& y_pred) {
  const Tensor t = losses::match_target(y_true, y_pred, "logcosh");
  const Tensor x = ops::subtract(y_pred, t);
  const Tensor per_element = x + ops::softplus(x * -2.f) - static_cast<float>(std::log(2.0));
  return ops::mean(per_element, {-1});
}

KERAS_FIELDS(LogCoshErrorOptions)

std::shared_ptr<Metric> LogCoshError::from_config(const json& config) {
  return metric_from_config<LogCoshError, LogCoshErrorOptions>(config);
}

namespace {
const bool registered =
    register_class<Metric, LogCoshError>("LogCoshError", {"logcosh", "log_cosh", "log_cosh_error"});
}

}  // namespace keras::metrics
