#pragma once
// Nadam (keras.optimizers.Nadam): Adam with Nesterov momentum and Keras's momentum-cache schedule.
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct NadamOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_OPTIONS("Nadam")
};

/// u_t = beta_1 (1 - 0.5 * 0.96^t), U_t = u_1 ... u_t; m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2);
/// m_hat = u_(t+1) m / (1 - U_t u_(t+1)) + (1 - u_t) g / (1 - U_t); v_hat = v / (1 - beta_2^t);
/// var -= lr * m_hat / (sqrt(v_hat) + epsilon). Slots: "m", "v".
class Nadam : public Optimizer {
 public:
  explicit Nadam(NadamOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }
  double epsilon() const { return options_.epsilon; }

  std::string class_name() const override { return "Nadam"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"m"}, {"v"}}}; }

 private:
  double u_product(std::int64_t step);

  NadamOptions options_;
  double u_product_ = 1.0;          // U_t for t = u_product_step_
  std::int64_t u_product_step_ = 0;
};

}  // namespace keras::optimizers
