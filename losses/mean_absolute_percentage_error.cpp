#include "losses/mean_absolute_percentage_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor mean_absolute_percentage_error(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()
  Tensor t = ops::cast(match_target(y_true, y_pred, "mean_absolute_percentage_error"), DType::float32);
  Tensor diff = ops::abs((t - y_pred) / ops::maximum(ops::abs(t), Tensor::scalar(kEpsilon)));
  return 100.f * ops::mean(diff, {-1});
}

KERAS_FIELDS(MeanAbsolutePercentageErrorOptions)

std::shared_ptr<Loss> MeanAbsolutePercentageError::from_config(const json& config) {
  return loss_from_config<MeanAbsolutePercentageError, MeanAbsolutePercentageErrorOptions>(config);
}

namespace {
const bool registered = register_class<Loss, MeanAbsolutePercentageError>(
    "MeanAbsolutePercentageError", {"mean_absolute_percentage_error", "mape", "MAPE"});
}

}  // namespace keras::losses
