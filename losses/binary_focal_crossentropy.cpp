#include "losses/binary_focal_crossentropy.hpp"

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
    throw ValueError("binary_focal_crossentropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
}

}  // namespace

Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool apply_class_balancing, float alpha,
                                 float gamma, bool from_logits, float label_smoothing, int axis) {
  check_label_smoothing(label_smoothing);
  Tensor t = ops::cast(match_target(y_true, y_pred, "binary_focal_crossentropy"), DType::float32);
  if (label_smoothing > 0.f) t = t * (1.f - label_smoothing) + 0.5f * label_smoothing;
  Tensor bce;
  Tensor p;
  if (from_logits) {
    // tf.nn.sigmoid_cross_entropy_with_logits, as in binary_crossentropy.
    const Tensor& x = y_pred;
    Tensor r = ops::relu(x);
    bce = r - x * t + ops::softplus(x - 2.f * r);
    p = ops::sigmoid(x);
  } else {
    Tensor clipped = ops::clip(y_pred, kEpsilon, 1.f - kEpsilon);
    bce = -(t * ops::log(clipped + kEpsilon) + (1.f - t) * ops::log(1.f - clipped + kEpsilon));
    p = y_pred;
  }
  Tensor focal_bce = bce;
  // gamma = 0 is plain cross-entropy; skipping the factor avoids 0 * inf in pow's gradient at p_t = 1.
  if (gamma != 0.f) {
    Tensor p_t = t * p + (1.f - t) * (1.f - p);
    focal_bce = ops::pow(1.f - p_t, gamma) * bce;
  }
  if (apply_class_balancing) focal_bce = (t * alpha + (1.f - t) * (1.f - alpha)) * focal_bce;
  return ops::mean(focal_bce, {axis});
}

BinaryFocalCrossentropy::BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {
  check_label_smoothing(static_cast<float>(options_.label_smoothing));
}

Tensor BinaryFocalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  return binary_focal_crossentropy(y_true, y_pred, options_.apply_class_balancing, static_cast<float>(options_.alpha),
                                   static_cast<float>(options_.gamma), options_.from_logits,
                                   static_cast<float>(options_.label_smoothing), options_.axis);
}

KERAS_FIELDS(BinaryFocalCrossentropyOptions, apply_class_balancing, alpha, gamma, from_logits, label_smoothing, axis)

json BinaryFocalCrossentropy::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> BinaryFocalCrossentropy::from_config(const json& config) {
  return loss_from_config<BinaryFocalCrossentropy, BinaryFocalCrossentropyOptions>(config);
}

namespace {
const bool registered =
    register_class<Loss, BinaryFocalCrossentropy>("BinaryFocalCrossentropy", {"binary_focal_crossentropy"});
}

}  // namespace keras::losses
