#pragma once
// keras.losses.SquaredHinge: the mean over the last axis of max(1 - y_true * y_pred, 0)^2.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of max(1 - y_true * y_pred, 0)^2 over the last axis (keras.losses.squared_hinge). As in
/// Keras, targets that are all 0 or 1 are first mapped to -1 and 1; other targets are used as they are.
Tensor squared_hinge(const Tensor& y_true, const Tensor& y_pred);

struct SquaredHingeOptions {
  KERAS_LOSS_OPTIONS("squared_hinge")
};

class SquaredHinge : public Loss {
 public:
  explicit SquaredHinge(SquaredHingeOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return squared_hinge(y_true, y_pred); }
  std::string class_name() const override { return "SquaredHinge"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
