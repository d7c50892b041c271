#include "optimizers/schedules/learning_rate_schedule.hpp"

#include <cmath>

#include "keras/json.hpp"

namespace keras::optimizers::schedules {

std::shared_ptr<LearningRateSchedule> LearningRateSchedule::deserialize(const json& config) {
  return Registry<LearningRateSchedule>::instance().deserialize(config, "learning-rate schedule");
}

std::shared_ptr<LearningRateSchedule> LearningRateSchedule::get(const std::string& identifier) {
  return Registry<LearningRateSchedule>::instance().get(identifier, "learning-rate schedule");
}

double LearningRateSchedule::required_number(const json& c, const char* key, const std::string& owner) {
  if (!c.contains(key) || c[key].is_null())
    throw ValueError(owner + " config: missing required '" + key + "' in " + c.dump());
  if (!c[key].is_number())
    throw ValueError(owner + " config: '" + key + "' must be a number, got " + c[key].dump());
  return c[key].get<double>();
}

json LearningRateSchedule::steps_json(double steps) {
  if (std::floor(steps) == steps && std::abs(steps) < 9e15) return json(static_cast<std::int64_t>(steps));
  return json(steps);
}

json serialize(const LearningRateSchedule& schedule) {
  return serialize_object(schedule.class_name(), schedule.get_config());
}

LambdaSchedule::LambdaSchedule(std::function<double(std::int64_t)> fn) : fn_(std::move(fn)) {
  if (!fn_) throw ValueError("LambdaSchedule: the learning-rate function is empty");
}

json LambdaSchedule::get_config() const {
  throw ValueError(
      "LambdaSchedule: a C++ callable cannot be serialized; use one of the Keras schedules "
      "(ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay, InverseTimeDecay, CosineDecay, "
      "CosineDecayRestarts) or register your own LearningRateSchedule subclass");
}

}  // namespace keras::optimizers::schedules
