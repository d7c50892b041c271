#pragma once
// Adam (keras.optimizers.Adam, the tf.keras 2.11+ formulation).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct AdamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  KERAS_OPTIMIZER_OPTIONS("Adam")
};

/// alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t); m += (g - m)(1 - beta_1);
/// v += (g^2 - v)(1 - beta_2); var -= alpha * m / (sqrt(v) + epsilon).
/// With amsgrad, the running maximum of v ("vhat") replaces v in the denominator. Slots: "m", "v", "vhat".
class Adam : public Optimizer {
 public:
  explicit Adam(AdamOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }
  double epsilon() const { return options_.epsilon; }
  bool amsgrad() const { return options_.amsgrad; }

  std::string class_name() const override { return "Adam"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

  /// The update shared with AdamW: one pass over the elements of one variable.
  static void adam_update(std::int64_t n, const float* g, float* w, float* m, float* v, float* vhat, double lr,
                          double beta_1, double beta_2, double epsilon, std::int64_t step);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override;

 private:
  AdamOptions options_;
};

}  // namespace keras::optimizers
