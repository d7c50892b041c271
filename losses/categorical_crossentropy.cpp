#include "losses/categorical_crossentropy.hpp"

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
    throw ValueError("categorical_crossentropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
}

// -sum(t * log_softmax(x)) over any axis, shifting by the (constant) maximum for stability.
Tensor softmax_cross_entropy_on_axis(const Tensor& t, const Tensor& x, int axis) {
  Tensor z = x - ops::stop_gradient(ops::max(x, {axis}, true));
  Tensor log_probs = z - ops::log(ops::sum(ops::exp(z), {axis}, true));
  return -ops::sum(t * log_probs, {axis});
}

}  // namespace

Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits, float label_smoothing,
                                int axis) {
  check_label_smoothing(label_smoothing);
  if (y_pred.ndim() == 0 || y_true.shape() != y_pred.shape())
    throw ValueError("categorical_crossentropy: y_true of shape " + shape_str(y_true.shape()) +
                     " does not match y_pred of shape " + shape_str(y_pred.shape()) +
                     "; targets must be one-hot with the shape of the predictions. For integer class ids use "
                     "sparse_categorical_crossentropy, or one-hot encode them first");
  if (axis < -y_pred.ndim() || axis >= y_pred.ndim())
    throw ValueError("categorical_crossentropy: axis " + std::to_string(axis) + " is out of range for y_pred of shape " +
                     shape_str(y_pred.shape()));
  Tensor t = ops::cast(y_true, DType::float32);
  if (label_smoothing > 0.f) {
    // As in Keras, the number of classes is the size of the last axis of y_true.
    const auto num_classes = static_cast<float>(t.dim(-1));
    t = t * (1.f - label_smoothing) + label_smoothing / num_classes;
  }
  const bool last_axis = axis == -1 || axis == y_pred.ndim() - 1;
  if (from_logits) return last_axis ? ops::softmax_cross_entropy(t, y_pred) : softmax_cross_entropy_on_axis(t, y_pred, axis);
  // Keras 2: scale so the class probabilities sum to 1, clip, then -sum(t * log(p)).
  Tensor p = y_pred / ops::sum(y_pred, {axis}, true);
  p = ops::clip(p, kEpsilon, 1.f - kEpsilon);
  return -ops::sum(t * ops::log(p), {axis});
}

CategoricalCrossentropy::CategoricalCrossentropy(CategoricalCrossentropyOptions options)
    : Loss(options.name, options.reduction), options_(std::move(options)) {
  check_label_smoothing(static_cast<float>(options_.label_smoothing));
}

Tensor CategoricalCrossentropy::call(const Tensor& y_true, const Tensor& y_pred) const {
  return categorical_crossentropy(y_true, y_pred, options_.from_logits, static_cast<float>(options_.label_smoothing),
                                  options_.axis);
}

KERAS_FIELDS(CategoricalCrossentropyOptions, from_logits, label_smoothing, axis)

json CategoricalCrossentropy::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> CategoricalCrossentropy::from_config(const json& config) {
  return loss_from_config<CategoricalCrossentropy, CategoricalCrossentropyOptions>(config);
}

namespace {
const bool registered =
    register_class<Loss, CategoricalCrossentropy>("CategoricalCrossentropy", {"categorical_crossentropy"});
}

}  // namespace keras::losses
