#include "losses/binary_crossentropy.hpp"

#include <algorithm>

#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"

namespace keras::losses {
namespace {

constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()

// Keras's squeeze_or_expand_dimensions: (N,) against (N, 1) is reshaped; other shapes must broadcast.
Tensor match_target(const Tensor& y_true, const Tensor& y_pred) {
  if (y_pred.ndim() > 0 && y_true.ndim() + 1 == y_pred.ndim() && y_pred.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  if (y_true.ndim() > 0 && y_true.ndim() == y_pred.ndim() + 1 && y_true.dim(-1) == 1)
    return ops::reshape(y_true, y_pred.shape());
  const auto& a = y_true.shape();
  const auto& b = y_pred.shape();
  for (std::size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const auto da = a[a.size() - i], db = b[b.size() - i];
    if (da != db && da != 1 && db != 1)
      throw ValueError("binary_crossentropy: y_true of shape " + shape_str(a) + " and y_pred of shape " +
                       shape_str(b) + " are incompatible; give one 0/1 target per prediction, of the same shape");
  }
  return y_true;
}

void check_label_smoothing(float ls) {
  if (!(ls >= 0.f && ls <= 1.f))
    throw ValueError("binary_crossentropy: label_smoothing must be in [0, 1], got " + std::to_string(ls));
}

}  // namespace

Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits, float label_smoothing,
                           int axis) {
  check_label_smoothing(label_smoothing);
  Tensor t = ops::cast(match_target(y_true, y_pred), DType::float32);
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

json BinaryCrossentropy::get_config() const {
  json config = Loss::get_config();
  config["from_logits"] = options_.from_logits;
  config["label_smoothing"] = options_.label_smoothing;
  config["axis"] = options_.axis;
  return config;
}

std::shared_ptr<Loss> BinaryCrossentropy::from_config(const json& config) {
  return std::make_shared<BinaryCrossentropy>(BinaryCrossentropyOptions{
      .from_logits = config.value("from_logits", false),
      .label_smoothing = config.value("label_smoothing", 0.0),
      .axis = config.value("axis", -1),
      .reduction = reduction_from_name(config.value("reduction", "sum_over_batch_size")),
      .name = config.value("name", "binary_crossentropy")});
}

namespace {
const bool registered = register_class<Loss, BinaryCrossentropy>("BinaryCrossentropy", {"binary_crossentropy"});
}

}  // namespace keras::losses
