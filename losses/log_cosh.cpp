#include "losses/log_cosh.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::losses {

Tensor log_cosh(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kLog2 = 0.6931471805599453f;
  Tensor t = ops::cast(match_target(y_true, y_pred, "log_cosh"), DType::float32);
  Tensor x = y_pred - t;
  return ops::mean(x + ops::softplus(-2.f * x) - kLog2, {-1});
}

std::shared_ptr<Loss> LogCosh::from_config(const json& config) {
  return std::make_shared<LogCosh>(LogCoshOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "log_cosh")});
}

namespace {
const bool registered = register_class<Loss, LogCosh>("LogCosh", {"log_cosh", "logcosh"});
}

}  // namespace keras::losses
