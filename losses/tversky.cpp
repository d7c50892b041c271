#include "losses/tversky.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor tversky(const Tensor& y_true, const Tensor& y_pred, float alpha, float beta) {
  if (y_true.size() != y_pred.size())
    throw ValueError("tversky: y_true of shape " + shape_str(y_true.shape()) + " and y_pred of shape " +
                     shape_str(y_pred.shape()) + " must hold as many values");
  const Tensor t = ops::cast(y_true, DType::float32).reshape({-1});
  const Tensor p = ops::reshape(y_pred, {-1});
  const Tensor intersection = ops::sum(t * p);
  const Tensor missed = ops::sum((1.f - p) * t);      // Keras's "fp"
  const Tensor spurious = ops::sum(p * (1.f - t));    // Keras's "fn"
  return 1.f - intersection / (intersection + alpha * missed + beta * spurious + 1e-7f);
}

KERAS_FIELDS(TverskyOptions, alpha, beta)

json Tversky::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> Tversky::from_config(const json& config) {
  return loss_from_config<Tversky, TverskyOptions>(config);
}

namespace {
const bool registered = register_class<Loss, Tversky>("Tversky", {"tversky"});
}

}  // namespace keras::losses
