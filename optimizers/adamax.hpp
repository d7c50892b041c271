#pragma once
// Adamax (keras.optimizers.Adamax): Adam with the infinity norm.
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdamaxOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_OPTIONS("Adamax")
};

/// m += (g - m)(1 - beta_1); u = max(beta_2 * u, |g|); var -= lr * m / ((1 - beta_1^t) (u + epsilon)).
/// Slots: "m", "u".
class Adamax : public Optimizer {
 public:
  explicit Adamax(AdamaxOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }
  double epsilon() const { return options_.epsilon; }

  std::string class_name() const override { return "Adamax"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"m"}, {"u"}}}; }

 private:
  AdamaxOptions options_;
};

}  // namespace keras::optimizers
