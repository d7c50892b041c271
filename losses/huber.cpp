#include "losses/huber.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor huber(const Tensor& y_true, const Tensor& y_pred, float delta) {
  Tensor t = ops::cast(match_target(y_true, y_pred, "huber"), DType::float32);
  Tensor abs_error = ops::abs(y_pred - t);
  // Keras selects with tf.where; the same piecewise value without a select: with q = min(|e|, delta),
  // 0.5 q^2 + delta (|e| - q) is 0.5 e^2 inside the band and delta |e| - 0.5 delta^2 outside it,
  // and its gradient is e inside and delta * sign(e) outside.
  Tensor q = ops::minimum(abs_error, Tensor::scalar(delta));
  return ops::mean(0.5f * ops::square(q) + delta * (abs_error - q), {-1});
}

KERAS_FIELDS(HuberOptions, delta)

json Huber::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> Huber::from_config(const json& config) {
  return loss_from_config<Huber, HuberOptions>(config);
}

namespace {
const bool registered = register_class<Loss, Huber>("Huber", {"huber"});
}

}  // namespace keras::losses
