#include "optimizers/schedules/inverse_time_decay.hpp"

#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/schedules/schedule_config.hpp"

namespace keras::optimizers::schedules {
namespace {
const bool registered = register_class<LearningRateSchedule, InverseTimeDecay>("InverseTimeDecay");
}  // namespace

InverseTimeDecay::InverseTimeDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                                   InverseTimeDecayOptions options)
    : initial_learning_rate_(initial_learning_rate),
      decay_steps_(decay_steps),
      decay_rate_(decay_rate),
      options_(std::move(options)) {
  if (!(decay_steps_ > 0))
    throw ValueError("InverseTimeDecay: `decay_steps` must be > 0, got " + std::to_string(decay_steps_));
}

double InverseTimeDecay::operator()(std::int64_t step) const {
  double p = static_cast<double>(step) / decay_steps_;
  if (options_.staircase) p = std::floor(p);
  return initial_learning_rate_ / (1.0 + decay_rate_ * p);
}

KERAS_FIELDS(InverseTimeDecayOptions, staircase, name)

json InverseTimeDecay::get_config() const {
  return schedule_config({{"initial_learning_rate", initial_learning_rate_},
                          {"decay_steps", steps_json(decay_steps_)},
                          {"decay_rate", decay_rate_}},
                         options_);
}

std::shared_ptr<LearningRateSchedule> InverseTimeDecay::from_config(const json& c) {
  const std::string owner = "InverseTimeDecay";
  // One statement each: a missing value is reported in the order Keras lists them.
  const double initial = required_number(c, "initial_learning_rate", owner);
  const double decay_steps = required_number(c, "decay_steps", owner);
  const double decay_rate = required_number(c, "decay_rate", owner);
  return std::make_shared<InverseTimeDecay>(initial, decay_steps, decay_rate,
                                            schedule_options<InverseTimeDecayOptions>(c));
}

}  // namespace keras::optimizers::schedules
