#pragma once
// Ftrl (keras.optimizers.Ftrl): Follow The Regularized Leader (McMahan et al., 2013).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct FtrlOptions {
  LearningRate learning_rate = 0.001;
  double learning_rate_power = -0.5;  // <= 0
  double initial_accumulator_value = 0.1;
  double l1_regularization_strength = 0.0;
  double l2_regularization_strength = 0.0;
  double l2_shrinkage_regularization_strength = 0.0;  // magnitude penalty that shrinks the gradient
  double beta = 0.0;
  KERAS_OPTIMIZER_OPTIONS("Ftrl")
};

/// With p = -learning_rate_power and l2' = l2 + beta / (2 lr): new_acc = acc + g^2;
/// linear += g + 2 l2_shrinkage var - (new_acc^p - acc^p) / lr * var;
/// var = (clip(linear, -l1, l1) - linear) / (new_acc^p / lr + 2 l2'); acc = new_acc.
/// Slots: "accumulator", "linear".
class Ftrl : public Optimizer {
 public:
  explicit Ftrl(FtrlOptions options = {});

  const FtrlOptions& options() const { return options_; }

  std::string class_name() const override { return "Ftrl"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override {
    return {{{"accumulator", options_.initial_accumulator_value}, {"linear"}}};
  }

 private:
  FtrlOptions options_;
};

}  // namespace keras::optimizers
