#pragma once
// keras.losses.CategoricalFocalCrossentropy: categorical cross-entropy scaled by alpha * (1 - p)^gamma
// per class (Lin et al., "Focal Loss for Dense Object Detection", 2017).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample sum over `axis` of -alpha * (1 - p)^gamma * y * log(p) (keras.losses.categorical_focal_crossentropy).
/// Targets are one-hot (or soft) with y_pred's shape, smoothed to y * (1 - label_smoothing) +
/// label_smoothing / num_classes. Logits go through a softmax over `axis`; probabilities are then divided by
/// their sum over `axis` and clipped to [1e-7, 1 - 1e-7], as in Keras.
Tensor categorical_focal_crossentropy(const Tensor& y_true, const Tensor& y_pred, float alpha = 0.25f,
                                      float gamma = 2.f, bool from_logits = false, float label_smoothing = 0.f,
                                      int axis = -1);

struct CategoricalFocalCrossentropyOptions {
  double alpha = 0.25;
  double gamma = 2.0;
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  KERAS_LOSS_OPTIONS("categorical_focal_crossentropy")
};

class CategoricalFocalCrossentropy : public Loss {
 public:
  explicit CategoricalFocalCrossentropy(CategoricalFocalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalFocalCrossentropy"; }
  /// {"reduction", "name", "alpha", "gamma", "from_logits", "label_smoothing", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const CategoricalFocalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalFocalCrossentropyOptions options_;
};

}  // namespace keras::losses
