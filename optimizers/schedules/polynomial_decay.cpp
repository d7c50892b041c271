#include "optimizers/schedules/polynomial_decay.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/schedules/schedule_config.hpp"

namespace keras::optimizers::schedules {
namespace {
const bool registered = register_class<LearningRateSchedule, PolynomialDecay>("PolynomialDecay");
}  // namespace

PolynomialDecay::PolynomialDecay(double initial_learning_rate, double decay_steps, PolynomialDecayOptions options)
    : initial_learning_rate_(initial_learning_rate), decay_steps_(decay_steps), options_(std::move(options)) {
  if (!(decay_steps_ > 0))
    throw ValueError("PolynomialDecay: `decay_steps` must be > 0, got " + std::to_string(decay_steps_));
}

double PolynomialDecay::operator()(std::int64_t step_in) const {
  double step = static_cast<double>(step_in), decay_steps = decay_steps_;
  if (options_.cycle)
    decay_steps *= step == 0 ? 1.0 : std::ceil(step / decay_steps_);
  else
    step = std::min(step, decay_steps);
  const double end = options_.end_learning_rate;
  return (initial_learning_rate_ - end) * std::pow(1.0 - step / decay_steps, options_.power) + end;
}

KERAS_FIELDS(PolynomialDecayOptions, end_learning_rate, power, cycle, name)

json PolynomialDecay::get_config() const {
  return schedule_config(
      {{"initial_learning_rate", initial_learning_rate_}, {"decay_steps", steps_json(decay_steps_)}}, options_);
}

std::shared_ptr<LearningRateSchedule> PolynomialDecay::from_config(const json& c) {
  const std::string owner = "PolynomialDecay";
  // One statement each: a missing value is reported in the order Keras lists them.
  const double initial = required_number(c, "initial_learning_rate", owner);
  const double decay_steps = required_number(c, "decay_steps", owner);
  return std::make_shared<PolynomialDecay>(initial, decay_steps, schedule_options<PolynomialDecayOptions>(c));
}

}  // namespace keras::optimizers::schedules
