#include "optimizers/schedules/learning_rate_schedule.hpp"

#include <cmath>

#include "keras/json.hpp"

namespace keras::optimizers::schedules {

std::shared_ptr<LearningRateSchedule> LearningRateSchedule::deserialize(const json& config) {
  if (config.is_string()) return get(config.get<std::string>());
  if (!config.is_object() || !config.contains("class_name") || !config["class_name"].is_string())
    throw ValueError("Cannot read a learning-rate schedule from " + config.dump() +
                     ": expected {\"class_name\": ..., \"config\": {...}}");
  const json& c = config.contains("config") ? config["config"] : json::object();
  return Registry<LearningRateSchedule>::instance().create(config["class_name"].get<std::string>(), c,
                                                           "learning-rate schedule");
}

std::shared_ptr<LearningRateSchedule> LearningRateSchedule::get(const std::string& identifier) {
  return Registry<LearningRateSchedule>::instance().create(identifier, json::object(), "learning-rate schedule");
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
