#pragma once
// Lamb (keras.optimizers.Lamb, Keras 3): Adam's update scaled per variable by the trust ratio
// |var| / |update| (You et al., 2019, "Large Batch Optimization for Deep Learning").
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct LambOptions {
  LearningRate learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  KERAS_OPTIMIZER_OPTIONS("lamb")
};

/// m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2);
/// u = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + epsilon);
/// var -= r * lr * u with r = |var| / |u| (L2 norms over the variable), or 1 when either norm is 0.
/// Slots: "momentum", "velocity" (Keras 3's names).
class Lamb : public Optimizer {
 public:
  explicit Lamb(LambOptions options = {});

  double beta_1() const { return options_.beta_1; }
  double beta_2() const { return options_.beta_2; }
  double epsilon() const { return options_.epsilon; }

  std::string class_name() const override { return "Lamb"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"momentum"}, {"velocity"}}}; }

 private:
  LambOptions options_;
};

}  // namespace keras::optimizers
