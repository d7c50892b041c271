#pragma once
// LearningRateSchedule (keras.optimizers.schedules.LearningRateSchedule): the learning rate as a
// function of the optimizer step, serializable by class name like every Keras object.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "keras/registry.hpp"

namespace keras::optimizers::schedules {

class LearningRateSchedule {
 public:
  virtual ~LearningRateSchedule() = default;

  /// The learning rate at `step` (an optimizer asks at its iterations() before each update).
  virtual double operator()(std::int64_t step) const = 0;

  virtual std::string class_name() const = 0;
  /// The Keras config ({"initial_learning_rate": ..., "name": ...}).
  virtual json get_config() const = 0;

  /// From {"class_name", "config"} (Keras's serialized form; "module"/"registered_name" are ignored).
  static std::shared_ptr<LearningRateSchedule> deserialize(const json& config);
  /// By class name with an empty config (only useful for registered custom schedules without arguments).
  static std::shared_ptr<LearningRateSchedule> get(const std::string& identifier);

 protected:
  /// A positional value Keras always writes (the options are read by schedule_options, in
  /// optimizers/schedules/schedule_config.hpp); `owner` names the class in error messages.
  static double required_number(const json& c, const char* key, const std::string& owner);
  /// Step counts as Keras writes them: an integer when integral.
  static json steps_json(double steps);
};

using LearningRateScheduleRef = Ref<LearningRateSchedule>;

/// {"class_name": ..., "config": ...}.
json serialize(const LearningRateSchedule& schedule);

/// A schedule from any callable step -> learning rate. It cannot be written to a config: an optimizer
/// using one saves its current learning rate as a number (as Keras does for callables).
class LambdaSchedule : public LearningRateSchedule {
 public:
  explicit LambdaSchedule(std::function<double(std::int64_t)> fn);
  double operator()(std::int64_t step) const override { return fn_(step); }
  std::string class_name() const override { return "LambdaSchedule"; }
  /// Throws: a C++ callable has no config.
  json get_config() const override;

 private:
  std::function<double(std::int64_t)> fn_;
};

}  // namespace keras::optimizers::schedules
