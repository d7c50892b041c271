#pragma once
// Gradient descent with optional (Nesterov) momentum (keras.optimizers.SGD).
#include <cstdint>
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct SGDOptions {
  LearningRate learning_rate = 0.01;
  double momentum = 0.0;  // in [0, 1]
  bool nesterov = false;
  KERAS_OPTIMIZER_OPTIONS("SGD")
};

/// m = momentum * m - lr * g; var += m (Nesterov: var += momentum * m - lr * g).
/// Without momentum: var -= lr * g. Slots: "m".
class SGD : public Optimizer {
 public:
  explicit SGD(SGDOptions options = {});

  double momentum() const { return options_.momentum; }
  bool nesterov() const { return options_.nesterov; }

  std::string class_name() const override { return "SGD"; }
  json get_config() const override;
  static std::shared_ptr<Optimizer> from_config(const json& config);

 protected:
  void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) override;
  std::vector<std::vector<SlotKind>> slot_layout() const override { return {{{"m"}}}; }

 private:
  SGDOptions options_;
};

}  // namespace keras::optimizers
