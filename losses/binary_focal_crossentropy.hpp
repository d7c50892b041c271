#pragma once
// keras.losses.BinaryFocalCrossentropy: binary cross-entropy scaled down for well-classified examples
// (Lin et al., "Focal Loss for Dense Object Detection", 2017).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean over `axis` of (1 - p_t)^gamma * bce, where p_t = y * p + (1 - y) * (1 - p) and bce is
/// Keras's binary cross-entropy element (keras.losses.binary_focal_crossentropy). With
/// apply_class_balancing each element is also weighted by alpha for positives and 1 - alpha for negatives.
/// Targets are smoothed to y * (1 - label_smoothing) + 0.5 * label_smoothing first; probabilities are
/// clipped to [1e-7, 1 - 1e-7] inside the cross-entropy (not inside the focal factor), logits use the
/// stable form.
Tensor binary_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool apply_class_balancing = false,
                                 float alpha = 0.25f, float gamma = 2.f, bool from_logits = false,
                                 float label_smoothing = 0.f, int axis = -1);

struct BinaryFocalCrossentropyOptions {
  bool apply_class_balancing = false;
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  KERAS_LOSS_OPTIONS("binary_focal_crossentropy")
};

class BinaryFocalCrossentropy : public Loss {
 public:
  explicit BinaryFocalCrossentropy(BinaryFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryFocalCrossentropy"; }
  /// {"reduction", "name", "apply_class_balancing", "alpha", "gamma", "from_logits", "label_smoothing", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const BinaryFocalCrossentropyOptions& options() const { return options_; }

 private:
  BinaryFocalCrossentropyOptions options_;
};

}  // namespace keras::losses
