#pragma once
// Lion (keras.optimizers.Lion): EvoLved Sign Momentum (Chen et al., 2023).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct LionOptions {
  LearningRate learning_rate = 0.0001;
  double beta_1 = 0.9;   // in (0, 1]
  double beta_2 = 0.99;
  KERAS_OPTIMIZER_OPTIONS("Lion")
};

/// var -= lr * sign(beta_1 m + (1 - beta_1) g); m = beta_2 m + (1 - beta_2) g. Slots: "m".
class Lion : public Optimizer {
 public:
  explicit Lion(LionOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }

  std::string class_name() const override { return "Lion"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"m"}}}; }

 private:
  LionOptions options_;
};

}  // namespace keras::optimizers
