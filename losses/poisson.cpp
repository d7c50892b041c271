#include "losses/poisson.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor poisson(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()
  Tensor t = ops::cast(match_target(y_true, y_pred, "poisson"), DType::float32);
  return ops::mean(y_pred - t * ops::log(y_pred + kEpsilon), {-1});
}

KERAS_FIELDS(PoissonOptions)

std::shared_ptr<Loss> Poisson::from_config(const json& config) {
  return loss_from_config<Poisson, PoissonOptions>(config);
}

namespace {
const bool registered = register_class<Loss, Poisson>("Poisson", {"poisson"});
}

}  // namespace keras::losses
