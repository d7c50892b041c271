#include "losses/squared_hinge.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/hinge.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = detail::hinge_targets(y_true, y_pred, "squared_hinge");
  return ops::mean(ops::square(ops::maximum(1.f - t * y_pred, Tensor::scalar(0.f))), {-1});
}

KERAS_FIELDS(SquaredHingeOptions)

std::shared_ptr<Loss> SquaredHinge::from_config(const json& config) {
  return loss_from_config<SquaredHinge, SquaredHingeOptions>(config);
}

namespace {
const bool registered = register_class<Loss, SquaredHinge>("SquaredHinge", {"squared_hinge"});
}

}  // namespace keras::losses
