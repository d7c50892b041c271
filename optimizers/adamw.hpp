#pragma once
// AdamW (keras.optimizers.AdamW): Adam with decoupled weight decay (Loshchilov & Hutter).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdamWOptions {
  LearningRate learning_rate = 0.001;
  double weight_decay = 0.004;  // required: var -= var * weight_decay * lr before each Adam step
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  KERAS_OPTIMIZER_OPTIONS_AFTER_WEIGHT_DECAY("AdamW")
};

/// var -= var * weight_decay * lr, then the Adam update (see Adam). Slots: "m", "v", "vhat" (amsgrad).
class AdamW : public Optimizer {
 public:
  explicit AdamW(AdamWOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }
  double epsilon() const { return options_.epsilon; }
  bool amsgrad() const { return options_.amsgrad; }

  std::string class_name() const override { return "AdamW"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override;

 private:
  AdamWOptions options_;
};

}  // namespace keras::optimizers
