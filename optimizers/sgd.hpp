#pragma once
// Gradient descent with optional (Nesterov) momentum (keras.optimizers.SGD).
#include <optional>
#include <string>

#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

struct SGDOptions {
  double learning_rate = 0.01;
  double momentum = 0.0;  // in [0, 1]
  bool nesterov = false;
  std::optional<double> clipnorm = std::nullopt;
  std::optional<double> clipvalue = std::nullopt;
  std::optional<double> global_clipnorm = std::nullopt;
  std::string name = "SGD";
};

/// m = momentum * m - lr * g; var += m (Nesterov: var += momentum * m - lr * g).
/// Without momentum: var -= lr * g.
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

 private:
  SGDOptions options_;
};

}  // namespace keras::optimizers
