#include "losses/log_cosh.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kLog2 = 0.6931471805599453f;
  Tensor t = ops::cast(match_target(y_true, y_pred, "log_cosh"), DType::float32);
  Tensor x = y_pred - t;
  return ops::mean(x + ops::softplus(-2.f * x) - kLog2, {-1});
}

KERAS_FIELDS(LogCoshOptions)

std::shared_ptr<Loss> LogCosh::from_config(const json& config) {
  return loss_from_config<LogCosh, LogCoshOptions>(config);
}

namespace {
const bool registered = register_class<Loss, LogCosh>("LogCosh", {"log_cosh", "logcosh"});
}

}  // namespace keras::losses
