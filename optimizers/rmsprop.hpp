#pragma once
// RMSprop (keras.optimizers.RMSprop, the tf.keras 2.11+ formulation).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct RMSpropOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.9;
  double momentum = 0.0;
  double epsilon = 1e-7;
  bool centered = false;
  KERAS_OPTIMIZER_OPTIONS("RMSprop")
};

/// velocity = rho * velocity + (1 - rho) g^2; increment = lr * g / sqrt(velocity + epsilon)
/// (centered: lr * g / sqrt(velocity - avg_g^2 + epsilon) with avg_g the running mean of g);
/// with momentum: mom = momentum * mom + increment, var -= mom; else var -= increment.
/// Slots: "velocity", "momentum" (momentum > 0), "average_gradient" (centered).
class RMSprop : public Optimizer {
 public:
  explicit RMSprop(RMSpropOptions options = {});

  double rho() const { return options_.rho; }
  double momentum() const { return options_.momentum; }
  double epsilon() const { return options_.epsilon; }
  bool centered() const { return options_.centered; }

  std::string class_name() const override { return "RMSprop"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override;

 private:
  RMSpropOptions options_;
};

}  // namespace keras::optimizers
