#pragma once
// keras.losses.CategoricalCrossentropy: cross-entropy between one-hot (or soft) targets and
// probabilities or logits.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample -sum(y_true * log(y_pred)) over `axis` (keras.losses.categorical_crossentropy).
/// Targets are smoothed to y * (1 - label_smoothing) + label_smoothing / num_classes. Probabilities
/// are first divided by their sum over `axis`, then clipped to [1e-7, 1 - 1e-7], as Keras 2 does;
/// logits go through a stable log-softmax, exact for logits of +-100.
Tensor categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                                float label_smoothing = 0.f, int axis = -1);

struct CategoricalCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  KERAS_LOSS_OPTIONS("categorical_crossentropy")
};

class CategoricalCrossentropy : public Loss {
 public:
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "CategoricalCrossentropy"; }
  /// {"reduction", "name", "from_logits", "label_smoothing", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const CategoricalCrossentropyOptions& options() const { return options_; }

 private:
  CategoricalCrossentropyOptions options_;
};

}  // namespace keras::losses
