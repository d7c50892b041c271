#pragma once
// keras.losses.Poisson: the mean over the last axis of y_pred - y_true * log(y_pred + epsilon).
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample mean of y_pred - y_true * log(y_pred + 1e-7) over the last axis (keras.losses.poisson).
/// y_pred is a rate (not its log), as in torch's poisson_nll_loss(log_input=False, full=False).
Tensor poisson(const Tensor& y_true, const Tensor& y_pred);

struct PoissonOptions {
  KERAS_LOSS_OPTIONS("poisson")
};

class Poisson : public Loss {
 public:
  explicit Poisson(PoissonOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return poisson(y_true, y_pred); }
  std::string class_name() const override { return "Poisson"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
