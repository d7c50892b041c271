#pragma once
// Adagrad (keras.optimizers.Adagrad).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdagradOptions {
  LearningRate learning_rate = 0.001;
  double initial_accumulator_value = 0.1;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_OPTIONS("Adagrad")
};

/// accumulator += g^2; var -= lr * g / sqrt(accumulator + epsilon). Slots: "accumulator".
class Adagrad : public Optimizer {
 public:
  explicit Adagrad(AdagradOptions options = {});

  double initial_accumulator_value() const { return options_.initial_accumulator_value; }
  double epsilon() const { return options_.epsilon; }

  std::string class_name() const override { return "Adagrad"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override {
    return {{{"accumulator", options_.initial_accumulator_value}}};
  }

 private:
  AdagradOptions options_;
};

}  // namespace keras::optimizers
