#include "losses/mean_absolute_error.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"

namespace keras::losses {

Tensor mean_absolute_error(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = match_target(y_true, y_pred, "mean_absolute_error");
  return ops::mean(ops::abs(ops::subtract(y_pred, t)), {-1});
}

std::shared_ptr<Loss> MeanAbsoluteError::from_config(const json& config) {
  return std::make_shared<MeanAbsoluteError>(MeanAbsoluteErrorOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "mean_absolute_error")});
}

namespace {
const bool registered =
    register_class<Loss, MeanAbsoluteError>("MeanAbsoluteError", {"mean_absolute_error", "mae", "MAE"});
}

}  // namespace keras::losses
