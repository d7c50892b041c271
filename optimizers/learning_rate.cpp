#include "optimizers/learning_rate.hpp"

#include "keras/json.hpp"

namespace keras::optimizers {

LearningRate::LearningRate(std::shared_ptr<schedules::LearningRateSchedule> schedule) : schedule_(std::move(schedule)) {
  if (!schedule_) throw ValueError("learning_rate: got a null schedule; pass a number or a schedule");
}

json encode(const LearningRate& learning_rate) {
  if (!learning_rate.is_schedule()) return learning_rate.at(0);
  return schedules::serialize(*learning_rate.schedule());
}

void decode(const json& value, LearningRate& learning_rate) {
  if (value.is_null()) return;  // TensorFlow.js writes null for an unset field: the default stays
  if (value.is_number()) {
    learning_rate = value.get<double>();
  } else if (value.is_object()) {
    learning_rate = schedules::LearningRateSchedule::deserialize(value);
  } else {
    throw ValueError("learning_rate must be a number or a serialized schedule ({\"class_name\": ..., \"config\": "
                     "...}), got " + value.dump());
  }
}

}  // namespace keras::optimizers
