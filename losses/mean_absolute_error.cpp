#include "losses/mean_absolute_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = match_target(y_true, y_pred, "mean_absolute_error");
  return ops::mean(ops::abs(ops::subtract(y_pred, t)), {-1});
}

KERAS_FIELDS(MeanAbsoluteErrorOptions)

std::shared_ptr<Loss> MeanAbsoluteError::from_config(const json& config) {
  return loss_from_config<MeanAbsoluteError, MeanAbsoluteErrorOptions>(config);
}

namespace {
const bool registered =
    register_class<Loss, MeanAbsoluteError>("MeanAbsoluteError", {"mean_absolute_error", "mae", "MAE"});
}

}  // namespace keras::losses
