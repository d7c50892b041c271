#pragma once
// keras.losses.Huber: quadratic for errors up to delta, linear beyond.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean over the last axis of 0.5 * e^2 where |e| <= delta, else delta * |e| - 0.5 * delta^2,
/// with e = y_pred - y_true (keras.losses.huber).
Tensor huber(const Tensor& y_true, const Tensor& y_pred, float delta = 1.f);

struct HuberOptions {
  double delta = 1.0;
  KERAS_LOSS_OPTIONS("huber_loss")
};

class Huber : public Loss {
 public:
  explicit Huber(HuberOptions options = {}) : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return huber(y_true, y_pred, static_cast<float>(options_.delta));
  }
  std::string class_name() const override { return "Huber"; }
  /// {"reduction", "name", "delta"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const HuberOptions& options() const { return options_; }

 private:
  HuberOptions options_;
};

}  // namespace keras::losses
