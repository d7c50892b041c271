#include "losses/dice.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor dice(const Tensor& y_true, const Tensor& y_pred, const std::optional<std::vector<int>>& axis) {
  if (y_true.shape() != y_pred.shape())
    throw ValueError("dice: y_true of shape " + shape_str(y_true.shape()) + " and y_pred of shape " +
                     shape_str(y_pred.shape()) + " must have the same shape");
  const Tensor t = ops::cast(y_true, DType::float32);
  const std::vector<int> axes = axis.value_or(std::vector<int>{});  // empty: every axis
  const Tensor intersection = ops::sum(t * y_pred, axes);
  return 1.f - 2.f * intersection / (ops::sum(t, axes) + ops::sum(y_pred, axes) + 1e-7f);
}

KERAS_FIELDS(DiceOptions, axis)

json Dice::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> Dice::from_config(const json& config) { return loss_from_config<Dice, DiceOptions>(config); }

namespace {
const bool registered = register_class<Loss, Dice>("Dice", {"dice"});
}

}  // namespace keras::losses
