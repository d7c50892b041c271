#include "losses/binary_crossentropy.hpp"

#include <algorithm>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {
namespace {

constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()

void check_label_smoothing(float ls) {
  if (!(ls >= 0.f && ls <= 1.f))
    throw ValueError("binary_crossentropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
}

}  // namespace

Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits, float label_smoothing,
                           int axis) {
  check_label_smoothing(label_smoothing);
  Tensor t = ops::cast(match_target(y_true, y_pred, "binary_crossentropy"), DType::float32);
  if (label_smoothing > 0.f) t = t * (1.f - label_smoothing) + 0.5f * label_smoothing;
  Tensor per_element;
  if (from_logits) {
    // relu(x) - x*z + log(1 + exp(-|x|)), with -|x| written as x - 2 relu(x) so that the gradient
    // at x = 0 is sigmoid(0) - z, as for tf.nn.sigmoid_cross_entropy_with_logits.
    Tensor x = y_pred;
    Tensor r = ops::relu(x);
    per_element = r - x * t + ops::softplus(x - 2.f * r);
  } else {
    // Keras 2: clip, then -(z log(p + eps) + (1 - z) log(1 - p + eps)).
    Tensor p = ops::clip(y_pred, kEpsilon, 1.f - kEpsilon);
    per_element = -(t * ops::log(p + kEpsilon) + (1.f - t) * ops::log(1.f - p + kEpsilon));
  }
  return ops::mean(per_element, {axis});
}

BinaryCrossentropy::BinaryCrossentropy(BinaryCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {
  check_label_smoothing(static_cast<float>(options_.label_smoothing));
}

Tensor BinaryCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  return binary_crossentropy(y_true, y_pred, options_.from_logits, static_cast<float>(options_.label_smoothing),
                             options_.axis);
}

KERAS_FIELDS(BinaryCrossentropyOptions, from_logits, label_smoothing, axis)

json BinaryCrossentropy::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> BinaryCrossentropy::from_config(const json& config) {
  return loss_from_config<BinaryCrossentropy, BinaryCrossentropyOptions>(config);
}

namespace {
const bool registered = register_class<Loss, BinaryCrossentropy>("BinaryCrossentropy", {"binary_crossentropy"});
}

}  // namespace keras::losses
