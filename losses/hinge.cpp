#include "losses/hinge.hpp"

#include <algorithm>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

namespace detail {
Tensor hinge_targets(const Tensor& y_true, const Tensor& y_pred, const std::string& loss_name) {
  Tensor t = ops::cast(match_target(y_true, y_pred, loss_name), DType::float32);
  const float* p = t.data<float>();
  const bool binary = std::all_of(p, p + t.size(), [](float v) { return v == 0.f || v == 1.f; });
  return binary ? 2.f * t - 1.f : t;
}
}  // namespace detail

Tensor hinge(const Tensor& y_true, const Tensor& y_pred) {
  Tensor t = detail::hinge_targets(y_true, y_pred, "hinge");
  return ops::mean(ops::maximum(1.f - t * y_pred, Tensor::scalar(0.f)), {-1});
}

KERAS_FIELDS(HingeOptions)

std::shared_ptr<Loss> Hinge::from_config(const json& config) {
  return loss_from_config<Hinge, HingeOptions>(config);
}

namespace {
const bool registered = register_class<Loss, Hinge>("Hinge", {"hinge"});
}

}  // namespace keras::losses
