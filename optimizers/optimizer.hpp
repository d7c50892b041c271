#pragma once
// Optimizer base (keras.optimizers.Optimizer): gradient clipping, the iteration counter, slot
// variables created on first use, and apply_gradients / minimize. Subclasses write update_step only.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/registry.hpp"
#include "keras/variable.hpp"

namespace keras::optimizers {

/// Arguments every optimizer takes (Keras names and defaults).
struct CommonOptions {
  std::optional<double> clipnorm{};         // clip each gradient to this L2 norm
  std::optional<double> clipvalue{};        // clip each gradient element to [-v, v]
  std::optional<double> global_clipnorm{};  // clip all gradients together to this L2 norm
};

class Optimizer {
 public:
  Optimizer(std::string name, double learning_rate, CommonOptions common = {});
  virtual ~Optimizer() = default;

  /// One update of each variable from its gradient (undefined gradients are skipped).
  void apply_gradients(const std::vector<Tensor>& grads, const std::vector<std::shared_ptr<Variable>>& vars);
  /// Computes d loss / d vars with a GradientTape and applies them (the seed's optimizer.minimize(f, [x])).
  void minimize(const std::function<Tensor()>& loss, const std::vector<std::shared_ptr<Variable>>& vars);

  double learning_rate() const { return learning_rate_; }
  void set_learning_rate(double lr) { learning_rate_ = lr; }
  /// Number of apply_gradients calls so far.
  std::int64_t iterations() const { return iterations_; }
  void set_iterations(std::int64_t n) { iterations_ = n; }
  const std::string& name() const { return name_; }
  /// Slot variables in creation order (for saving optimizer state).
  std::vector<std::shared_ptr<Variable>> variables() const { return slot_list_; }

  virtual std::string class_name() const = 0;
  /// {"name", "learning_rate", clip options} plus each subclass's own fields.
  virtual json get_config() const;

  /// By name ("adam", "sgd", "rmsprop", "Adam").
  static std::shared_ptr<Optimizer> get(const std::string& identifier);
  static std::shared_ptr<Optimizer> deserialize(const json& config);

 protected:
  /// Updates one variable in place; `step` is iterations() + 1 (Keras's local_step).
  virtual void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) = 0;
  /// A zero-initialized slot (e.g. "m") shaped like var, created on first use.
  Variable& slot(const Variable& var, const std::string& slot_name);
  static CommonOptions common_from_config(const json& config);

 private:
  std::string name_{};
  double learning_rate_;
  CommonOptions common_;
  std::int64_t iterations_ = 0;
  std::map<std::pair<const Variable*, std::string>, std::shared_ptr<Variable>> slots_;
  std::vector<std::shared_ptr<Variable>> slot_list_{};
};

using OptimizerRef = Ref<Optimizer>;

json serialize(const Optimizer& optimizer);

}  // namespace keras::optimizers
