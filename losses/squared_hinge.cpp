#include "losses/squared_hinge.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/hinge.hpp"

namespace keras::losses {

Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = detail::hinge_targets(y_true, y_pred, "squared_hinge");
  return ops::mean(ops::square(ops::maximum(1.f - t * y_pred, Tensor::scalar(0.f))), {-1});
}

std::shared_ptr<Loss> SquaredHinge::from_config(const json& config) {
  return std::make_shared<SquaredHinge>(SquaredHingeOptions{
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "squared_hinge")});
}

namespace {
const bool registered = register_class<Loss, SquaredHinge>("SquaredHinge", {"squared_hinge"});
}

}  // namespace keras::losses
