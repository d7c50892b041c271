#include "losses/categorical_focal_crossentropy.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {
namespace {

constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()

void check_label_smoothing(float ls) {
  if (!(ls >= 0.f && ls <= 1.f))
    throw ValueError("categorical_focal_crossentropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
}

// Softmax over any axis: oneDNN's on the last one, exp(x - max) / sum otherwise.
Tensor softmax_on_axis(const Tensor& x, int axis) {
  if (axis == -1 || axis == x.ndim() - 1) return ops::softmax(x);
  Tensor e = ops::exp(x - ops::stop_gradient(ops::max(x, {axis}, true)));
  return e / ops::sum(e, {axis}, true);
}

}  // namespace

Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, float alpha, float gamma,
                                      bool from_logits, float label_smoothing, int axis) {
  check_label_smoothing(label_smoothing);
  if (y_pred.ndim() == 0 || y_true.shape() != y_pred.shape())
    throw ValueError("categorical_focal_crossentropy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) +
                     "; targets must be one-hot with the shape of the predictions (one-hot encode integer class "
                     "ids first, e.g. with ops::one_hot)");
  if (axis < -y_pred.ndim() || axis >= y_pred.ndim())
    throw ValueError("categorical_focal_crossentropy: axis " + std::to_string(axis) +
                     " is out of range for y_pred of shape " + shape_str(y_pred.shape()));
  Tensor t = ops::cast(y_true, DType::float32);
  if (label_smoothing > 0.f) {
    // As in Keras, the number of classes is the size of the last axis of y_true.
    const auto num_classes = static_cast<float>(t.dim(-1));
    t = t * (1.f - label_smoothing) + label_smoothing / num_classes;
  }
  Tensor p = from_logits ? softmax_on_axis(y_pred, axis) : y_pred;
  p = p / ops::sum(p, {axis}, true);
  p = ops::clip(p, kEpsilon, 1.f - kEpsilon);
  Tensor cce = -t * ops::log(p);
  Tensor weighting = gamma != 0.f ? ops::pow(1.f - p, gamma) * alpha : Tensor::scalar(alpha);
  return ops::sum(weighting * cce, {axis});
}

CategoricalFocalCrossentropy::CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {
  check_label_smoothing(static_cast<float>(options_.label_smoothing));
}

Tensor CategoricalFocalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  return categorical_focal_crossentropy(y_true, y_pred, static_cast<float>(options_.alpha),
                                        static_cast<float>(options_.gamma), options_.from_logits,
                                        static_cast<float>(options_.label_smoothing), options_.axis);
}

KERAS_FIELDS(CategoricalFocalCrossentropyOptions, alpha, gamma, from_logits, label_smoothing, axis)

json CategoricalFocalCrossentropy::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> CategoricalFocalCrossentropy::from_config(const json& config) {
  return loss_from_config<CategoricalFocalCrossentropy, CategoricalFocalCrossentropyOptions>(config);
}

namespace {
const bool registered = register_class<Loss, CategoricalFocalCrossentropy>("CategoricalFocalCrossentropy",
                                                                           {"categorical_focal_crossentropy"});
}

}  // namespace keras::losses
