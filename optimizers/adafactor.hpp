#pragma once
// Adafactor (keras.optimizers.Adafactor, Keras 3; Shazeer & Stern, 2018, "Adafactor: Adaptive Learning Rates
// with Sublinear Memory Cost"): the second moment of a variable of rank >= 2 is kept factored, as its row
// means r (the last axis averaged out) and column means c (the second-last averaged out).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdafactorOptions {
  LearningRate learning_rate = 0.001;
  double beta_2_decay = -0.8;
  double epsilon_1 = 1e-30;
  double epsilon_2 = 1e-3;
  double clip_threshold = 1.0;  // Adafactor's own update clipping (independent of clipnorm and clipvalue)
  bool relative_step = true;
  KERAS_OPTIMIZER_OPTIONS("adafactor")
};

/// As Keras 3 at step t (iterations() + 1): rho = min(lr, 1 / sqrt(t)), alpha = max(epsilon_2, rms(var)) rho,
/// beta = 1 - t^beta_2_decay, G = g^2 + epsilon_1;
/// rank >= 2: r = beta r + (1 - beta) mean(G, -1), c = beta c + (1 - beta) mean(G, -2),
///            v = (r / mean(r, -1))[..., None] * c[..., None, :];  rank < 2: v = beta v + (1 - beta) G;
/// u = g / sqrt(v), var -= alpha u / max(1, rms(u) / clip_threshold).
/// Slots (Keras 3's order per variable): "r" and "c" for rank >= 2 (shapes var[:-1] and var[:-2] + var[-1:]),
/// then "velocity" (the variable's shape). Keras's rho takes the smaller of lr and 1/sqrt(t) whether
/// relative_step is set or not (its two branches agree); relative_step is kept for the config.
class Adafactor : public Optimizer {
 public:
  explicit Adafactor(AdafactorOptions options = {});

  const AdafactorOptions& options() const { return options_; }

  std::string class_name() const override { return "Adafactor"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"r"}, {"c"}, {"velocity"}}}; }
  std::optional<Shape> slot_shape(const Variable& var, const std::string& slot_name) const override;

 private:
  AdafactorOptions options_;
};

}  // namespace keras::optimizers
