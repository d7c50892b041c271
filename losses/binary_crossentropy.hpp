#pragma once
// keras.losses.BinaryCrossentropy: cross-entropy between binary targets and probabilities or logits.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample binary cross-entropy, averaged over `axis` (keras.losses.binary_crossentropy).
/// Targets are smoothed to y * (1 - label_smoothing) + 0.5 * label_smoothing. Probabilities are
/// clipped to [1e-7, 1 - 1e-7] as Keras 2 does; logits use the stable form, exact for logits of +-100.
Tensor binary_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                           float label_smoothing = 0.f, int axis = -1);

struct BinaryCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
  KERAS_LOSS_OPTIONS("binary_crossentropy")
};

class BinaryCrossentropy : public Loss {
 public:
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "BinaryCrossentropy"; }
  /// {"reduction", "name", "from_logits", "label_smoothing", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const BinaryCrossentropyOptions& options() const { return options_; }

 private:
  BinaryCrossentropyOptions options_;
};

}  // namespace keras::losses
