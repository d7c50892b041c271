#pragma once
// keras.losses.Hinge: the mean over the last axis of max(1 - y_true * y_pred, 0), for labels -1 and 1.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of max(1 - y_true * y_pred, 0) over the last axis (keras.losses.hinge). As in Keras,
/// targets that are all 0 or 1 are first mapped to -1 and 1; other targets are used as they are.
Tensor hinge(const Tensor& y_true, const Tensor& y_pred);

namespace detail {
/// Float targets matched to y_pred's shape, mapped from {0, 1} to {-1, 1} when every value is 0 or 1
/// (Keras's _maybe_convert_labels). Shared by hinge and squared_hinge.
Tensor hinge_targets(const Tensor& y_true, const Tensor& y_pred, const std::string& loss_name);
}  // namespace detail

struct HingeOptions {
  KERAS_LOSS_OPTIONS("hinge")
};

class Hinge : public Loss {
 public:
  explicit Hinge(HingeOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return hinge(y_true, y_pred); }
  std::string class_name() const override { return "Hinge"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
