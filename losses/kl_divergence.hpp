#pragma once
// keras.losses.KLDivergence: Kullback-Leibler divergence sum(y_true * log(y_true / y_pred)) over the last axis.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample sum of y_true * log(y_true / y_pred) over the last axis, both clipped to [1e-7, 1] first
/// (keras.losses.kl_divergence, aliases kld and kullback_leibler_divergence).
Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred);
inline Tensor kld(const Tensor& y_true, const Tensor& y_pred) { return kl_divergence(y_true, y_pred); }
inline Tensor kullback_leibler_divergence(const Tensor& y_true, const Tensor& y_pred) {
  return kl_divergence(y_true, y_pred);
}

struct KLDivergenceOptions {
  KERAS_LOSS_OPTIONS("kl_divergence")
};

class KLDivergence : public Loss {
 public:
  explicit KLDivergence(KLDivergenceOptions options = {}) : Loss(options) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return kl_divergence(y_true, y_pred); }
  std::string class_name() const override { return "KLDivergence"; }
  static std::shared_ptr<Loss> from_config(const json& config);
};

}  // namespace keras::losses
