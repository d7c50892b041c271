#pragma once
// Optimizer base (keras.optimizers.Optimizer, tf.keras 2.11+): the learning rate (a number or a schedule),
// gradient clipping, decoupled weight decay, the iteration counter, slot variables, the exponential moving
// average of the weights, and apply_gradients / minimize. Subclasses write update_step only.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "keras/registry.hpp"
#include "keras/variable.hpp"
#include "optimizers/learning_rate.hpp"
#include "optimizers/optimizer_options.hpp"

namespace keras::optimizers {

class Optimizer {
 public:
  /// A custom optimizer: its name, learning rate and the other base arguments (common.name is replaced).
  Optimizer(std::string name, LearningRate learning_rate, CommonOptions common = {});
  /// A built-in: the learning rate and base fields of its options struct (which ends with
  /// KERAS_OPTIMIZER_OPTIONS).
  template <class Options>
  explicit Optimizer(const Options& options) : Optimizer(options.name, options.learning_rate, common_of(options)) {}
  virtual ~Optimizer() = default;

  /// One update of each variable from its gradient (undefined gradients are skipped; if every gradient is
  /// undefined nothing happens and iterations() does not move). In Keras's order: learning rate (see
  /// learning_rate()), clipping (clipnorm, else global_clipnorm, else clipvalue), weight decay, update_step,
  /// moving averages, constraints. With gradient_accumulation_steps = n (Keras 3): a call adds the gradients
  /// to the "gradient_accumulator" slots, and every n-th call updates with (sum of the n gradients) / n,
  /// clipped, then empties the accumulators; the moving averages and constraints follow every call.
  void apply_gradients(const std::vector<Tensor>& grads, const std::vector<std::shared_ptr<Variable>>& vars);
  /// Computes d loss / d vars with a GradientTape and applies them (the seed's optimizer.minimize(f, [x])).
  void minimize(const std::function<Tensor()>& loss, const std::vector<std::shared_ptr<Variable>>& vars);

  /// The learning rate of the next update: the constant, or the schedule at the number of
  /// apply_gradients calls so far (Keras 3's `_iterations`: with gradient accumulation it counts every
  /// call, while iterations() counts updates).
  double learning_rate() const { return learning_rate_.at(iterations_); }
  /// Sets a constant learning rate (replacing a schedule if there was one).
  void set_learning_rate(double lr) { learning_rate_ = lr; }
  /// Sets a number or a schedule.
  void set_learning_rate(LearningRate lr) { learning_rate_ = std::move(lr); }
  /// The schedule, or null when the learning rate is a constant.
  const std::shared_ptr<schedules::LearningRateSchedule>& learning_rate_schedule() const {
    return learning_rate_.schedule();
  }
  /// Number of updates so far (Keras's `optimizer.iterations`): apply_gradients calls that updated
  /// something, divided by gradient_accumulation_steps when gradients accumulate.
  std::int64_t iterations() const {
    return common_.gradient_accumulation_steps ? iterations_ / *common_.gradient_accumulation_steps : iterations_;
  }
  /// Sets iterations() (with gradient accumulation: at the start of an accumulation cycle).
  void set_iterations(std::int64_t n) {
    iterations_ = common_.gradient_accumulation_steps ? n * *common_.gradient_accumulation_steps : n;
  }
  /// The counter files store (Keras's `optimizer._iterations` variable): apply_gradients calls, each
  /// accumulating call included; equal to iterations() without gradient accumulation.
  std::int64_t iterations_variable() const { return iterations_; }
  void set_iterations_variable(std::int64_t n) { iterations_ = n; }
  /// gradient_accumulation_steps, or 0 when gradients do not accumulate.
  std::int64_t gradient_accumulation_steps() const { return common_.gradient_accumulation_steps.value_or(0); }
  const std::string& name() const { return common_.name; }
  const CommonOptions& common_options() const { return common_; }
  std::optional<double> weight_decay() const { return common_.weight_decay; }
  bool use_ema() const { return common_.use_ema; }

  /// Variables that weight decay must skip: these ones, and any whose name contains a match of one of the
  /// regular expressions (Keras: call before the first apply_gradients).
  void exclude_from_weight_decay(const std::vector<std::shared_ptr<Variable>>& vars = {},
                                 const std::vector<std::string>& name_patterns = {});
  /// With use_ema, copies each variable's moving average into it (call when training ends); else nothing.
  void finalize_variable_values(const std::vector<std::shared_ptr<Variable>>& vars);
  /// The same for every variable this optimizer has updated and that is still alive.
  void finalize_variable_values();

  /// Optimizer state in Keras's order (for saving): the EMA averages, then the slots in the order the
  /// optimizer's Keras build() creates them. The iteration counter is iterations().
  std::vector<std::shared_ptr<Variable>> variables() const;
  /// Creates the slots of every variable now (Keras's optimizer.build), e.g. before restoring saved state.
  void build(const std::vector<std::shared_ptr<Variable>>& vars);
  /// The slots of one variable, by slot name ("m", "v", ...), in the order variables() lists them.
  std::vector<std::pair<std::string, std::shared_ptr<Variable>>> slots_of(const Variable& var) const;

  virtual std::string class_name() const = 0;
  /// The Keras 2.11 base keys (for_each_base_field's, jit_compile, is_legacy_optimizer, learning_rate) plus
  /// each subclass's own fields (optimizers/optimizer_config.hpp).
  virtual json get_config() const;

  /// By name ("adam", "sgd", "rmsprop", "Adam", ...).
  static std::shared_ptr<Optimizer> get(const std::string& identifier);
  static std::shared_ptr<Optimizer> deserialize(const json& config);

 protected:
  /// Updates one variable in place; `lr` is learning_rate() and `step` is iterations() + 1 (Keras's local_step).
  virtual void update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) = 0;

  /// A slot kind and the value its slots start from.
  struct SlotKind {
    std::string name;
    double initial_value = 0.0;
  };
  /// The slots the optimizer keeps, as Keras's build() creates them: each inner list is created for every
  /// variable in turn (interleaved: m0, v0, m1, v1), the lists one after another. They are created for
  /// every variable the first time apply_gradients sees it, and variables() lists them in this order.
  /// Slots asked for through slot() but absent here follow, one kind after another, zero-initialized.
  virtual std::vector<std::vector<SlotKind>> slot_layout() const { return {}; }
  /// The shape of var's slot `slot_name`, or none when var has no such slot (Adafactor factors the
  /// second moment of variables of rank >= 2 only). By default every slot has the variable's shape.
  virtual std::optional<Shape> slot_shape(const Variable& var, const std::string& slot_name) const;
  /// The slot `slot_name` of var (created on first use, named "<slot_name>/<var name>").
  Variable& slot(const Variable& var, const std::string& slot_name);
  /// Throws unless var and grad are float32 (the update loops run on raw floats).
  void check_float32(const Tensor& grad, const Variable& var) const;

  /// The base fields of an options struct.
  template <class Options>
  static CommonOptions common_of(const Options& options) {
    CommonOptions common;
    for_each_base_field([](const char*, auto& to, const auto& from) { to = from; }, common, options);
    return common;
  }

 private:
  struct Tracked {
    std::weak_ptr<Variable> ref{};
    bool has_ref = false;  // false while only slot() has seen the variable
    std::map<std::string, std::shared_ptr<Variable>> slots{};
  };
  Tracked& track(const std::shared_ptr<Variable>& var);
  Variable& make_slot(Tracked& t, const Variable& var, const std::string& slot_name, const Tensor& initial);
  bool uses_weight_decay(const Variable& var) const;
  void clip(std::vector<Tensor>& grads) const;
  void overwrite_with_averages(const std::vector<std::shared_ptr<Variable>>& vars);
  /// The base's slots (the EMA average, the gradient accumulator) then slot_layout(), by name.
  std::vector<std::vector<SlotKind>> all_slot_groups() const;
  /// Adds the gradients to the accumulators; true when this call updates, the gradients then being the
  /// mean of the cycle (and the accumulators emptied).
  bool accumulate(std::vector<Tensor>& grads, const std::vector<std::shared_ptr<Variable>>& vars);

  LearningRate learning_rate_;
  CommonOptions common_;
  std::int64_t iterations_ = 0;  // Keras's _iterations: every call that updated or accumulated
  std::vector<Tracked> tracked_{};  // in the order apply_gradients first saw them
  std::unordered_map<const Variable*, std::size_t> index_{};
  std::vector<std::string> slot_names_{};  // every slot kind, in creation order
  std::vector<const Variable*> excluded_{};
  std::vector<std::string> excluded_patterns_{};
  mutable std::unordered_map<const Variable*, std::pair<std::string, bool>> decay_cache_{};  // name, decays
};

using OptimizerRef = Ref<Optimizer>;

json serialize(const Optimizer& optimizer);

}  // namespace keras::optimizers
