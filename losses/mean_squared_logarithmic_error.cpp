#include "losses/mean_squared_logarithmic_error.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor mean_squared_logarithmic_error(const Tensor& y_true, const Tensor& y_pred) {
  const Tensor eps = Tensor::scalar(1e-7f);  // keras.backend.epsilon()
  Tensor t = ops::cast(match_target(y_true, y_pred, "mean_squared_logarithmic_error"), DType::float32);
  Tensor first_log = ops::log(ops::maximum(y_pred, eps) + 1.f);
  Tensor second_log = ops::log(ops::maximum(t, eps) + 1.f);
  return ops::mean(ops::square(first_log - second_log), {-1});
}

KERAS_FIELDS(MeanSquaredLogarithmicErrorOptions)

std::shared_ptr<Loss> MeanSquaredLogarithmicError::from_config(const json& config) {
  return loss_from_config<MeanSquaredLogarithmicError, MeanSquaredLogarithmicErrorOptions>(config);
}

namespace {
const bool registered = register_class<Loss, MeanSquaredLogarithmicError>(
    "MeanSquaredLogarithmicError", {"mean_squared_logarithmic_error", "msle", "MSLE"});
}

}  // namespace keras::losses
