#include "losses/mean_squared_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = match_target(y_true, y_pred, "mean_squared_error");
  return ops::mean(ops::square(ops::subtract(y_pred, t)), {-1});
}

KERAS_FIELDS(MeanSquaredErrorOptions)

std::shared_ptr<Loss> MeanSquaredError::from_config(const json& config) {
  return loss_from_config<MeanSquaredError, MeanSquaredErrorOptions>(config);
}

namespace {
const bool registered =
    register_class<Loss, MeanSquaredError>("MeanSquaredError", {"mean_squared_error", "mse", "MSE"});
}

}  // namespace keras::losses
