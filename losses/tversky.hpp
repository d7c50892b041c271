#pragma once
// keras.losses.Tversky (Keras 3): a Dice loss that weighs the two kinds of error apart.
#include <memory>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Over all elements (the batch gives one value), as keras.losses.tversky:
/// 1 - I / (I + alpha * sum((1 - y_pred) * y_true) + beta * sum(y_pred * (1 - y_true)) + 1e-7),
/// I = sum(y_true * y_pred). (Keras's own naming: its "fp" term, weighted by alpha, is the mass of
/// y_true that y_pred misses.) alpha = beta = 0.5 is the Dice loss.
Tensor tversky(const Tensor& y_true, const Tensor& y_pred, float alpha = 0.5f, float beta = 0.5f);

struct TverskyOptions {
  double alpha = 0.5;
  double beta = 0.5;
  KERAS_LOSS_OPTIONS("tversky")
};

class Tversky : public Loss {
 public:
  explicit Tversky(TverskyOptions options = {}) : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return tversky(y_true, y_pred, static_cast<float>(options_.alpha), static_cast<float>(options_.beta));
  }
  std::string class_name() const override { return "Tversky"; }
  /// {"reduction", "name", "alpha", "beta"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const TverskyOptions& options() const { return options_; }

 private:
  TverskyOptions options_;
};

}  // namespace keras::losses
