#include "losses/categorical_hinge.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred) {
  if (y_pred.ndim() == 0) throw ValueError("categorical_hinge: y_pred must have a class axis, got a scalar");
  Tensor t = ops::cast(match_target(y_true, y_pred, "categorical_hinge"), DType::float32);
  Tensor pos = ops::sum(t * y_pred, {-1});
  Tensor neg = ops::max((1.f - t) * y_pred, {-1});
  return ops::maximum(neg - pos + 1.f, Tensor::scalar(0.f));
}

KERAS_FIELDS(CategoricalHingeOptions)

std::shared_ptr<Loss> CategoricalHinge::from_config(const json& config) {
  return loss_from_config<CategoricalHinge, CategoricalHingeOptions>(config);
}

namespace {
const bool registered = register_class<Loss, CategoricalHinge>("CategoricalHinge", {"categorical_hinge"});
}

}  // namespace keras::losses
