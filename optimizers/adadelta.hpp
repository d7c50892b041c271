#pragma once
// Adadelta (keras.optimizers.Adadelta).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdadeltaOptions {
  LearningRate learning_rate = 0.001;
  double rho = 0.95;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_OPTIONS("Adadelta")
};

/// acc_g = rho acc_g + (1 - rho) g^2; delta = -sqrt(acc_d + eps) g / sqrt(acc_g + eps);
/// acc_d = rho acc_d + (1 - rho) delta^2; var += lr * delta.
/// Slots: "accumulated_grad", "accumulated_delta_var".
class Adadelta : public Optimizer {
 public:
  explicit Adadelta(AdadeltaOptions options = {});

  double rho() const { return options_.rho; }
  double epsilon() const { return options_.epsilon; }

  std::string class_name() const override { return "Adadelta"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override {
    return {{{"accumulated_grad"}, {"accumulated_delta_var"}}};
  }

 private:
  AdadeltaOptions options_;
};

}  // namespace keras::optimizers
