#include "optimizers/learning_rate.hpp"

#include "keras/json.hpp"

namespace keras::optimizers {

LearningRate::LearningRate(std::shared_ptr<schedules::LearningRateSchedule> schedule) : schedule_(std::move(schedule)) {
  if (!schedule_) throw ValueError("learning_rate: got a null schedule; pass a number or a schedule");
}

json LearningRate::to_json(std::int64_t step) const {
  if (!schedule_) return value_;
  if (dynamic_cast<const schedules::LambdaSchedule*>(schedule_.get())) return (*schedule_)(step);
  return schedules::serialize(*schedule_);
}

LearningRate LearningRate::from_json(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_object()) return schedules::LearningRateSchedule::deserialize(value);
  throw ValueError("learning_rate must be a number or a serialized schedule ({\"class_name\": ..., \"config\": ...}), "
                   "got " + value.dump());
}

}  // namespace keras::optimizers
