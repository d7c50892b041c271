#include "losses/mean_squared_error.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"

namespace keras::losses {

Tensor mean_squared_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = match_target(y_true, y_pred, "mean_squared_error");
  return ops::mean(ops::square(ops::subtract(y_pred, t)), {-1});
}

std::shared_ptr<Loss> MeanSquaredError::from_config(const json& config) {
  return std::make_shared<MeanSquaredError>(MeanSquaredErrorOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "mean_squared_error")});
}

namespace {
const bool registered =
    register_class<Loss, MeanSquaredError>("MeanSquaredError", {"mean_squared_error", "mse", "MSE"});
}

}  // namespace keras::losses
