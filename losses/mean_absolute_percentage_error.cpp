#include "losses/mean_absolute_percentage_error.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"

namespace keras::losses {

Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()
  Tensor t = ops::cast(match_target(y_true, y_pred, "mean_absolute_percentage_error"), DType::float32);
  Tensor diff = ops::abs((t - y_pred) / ops::maximum(ops::abs(t), Tensor::scalar(kEpsilon)));
  return 100.f * ops::mean(diff, {-1});
}

std::shared_ptr<Loss> MeanAbsolutePercentageError::from_config(const json& config) {
  return std::make_shared<MeanAbsolutePercentageError>(MeanAbsolutePercentageErrorOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "mean_absolute_percentage_error")});
}

namespace {
const bool registered = register_class<Loss, MeanAbsolutePercentageError>(
    "MeanAbsolutePercentageError", {"mean_absolute_percentage_error", "mape", "MAPE"});
}

}  // namespace keras::losses
