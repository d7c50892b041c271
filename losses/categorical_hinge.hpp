#pragma once
// keras.losses.CategoricalHinge: max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0) per sample.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample max(neg - pos + 1, 0) with pos = sum(y_true * y_pred) and neg = max((1 - y_true) * y_pred),
/// both over the last axis; y_true is one-hot (keras.losses.categorical_hinge).
Tensor categorical_hinge(const Tensor& y_true, const Tensor& y_pred);

struct CategoricalHingeOptions {
  KERAS_LOSS_OPTIONS("categorical_hinge")
};

class CategoricalHinge : public Loss {
 public:
  explicit CategoricalHinge(CategoricalHingeOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return categorical_hinge(y_true, y_pred); }
  std::string class_name() const override { return "CategoricalHinge"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
