#include "optimizers/schedules/cosine_decay.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/schedules/schedule_config.hpp"

namespace keras::optimizers::schedules {
namespace {
const bool registered = register_class<LearningRateSchedule, CosineDecay>("CosineDecay");
}  // namespace

CosineDecay::CosineDecay(double initial_learning_rate, double decay_steps, CosineDecayOptions options)
    : initial_learning_rate_(initial_learning_rate), decay_steps_(decay_steps), options_(std::move(options)) {
  if (!(decay_steps_ > 0))
    throw ValueError("CosineDecay: `decay_steps` must be > 0, got " + std::to_string(decay_steps_));
  if (options_.warmup_steps < 0)
    throw ValueError("CosineDecay: `warmup_steps` must be >= 0, got " + std::to_string(options_.warmup_steps));
}

double CosineDecay::operator()(std::int64_t step_in) const {
  const double alpha = options_.alpha;
  auto decay = [&](double step, double from) {
    const double cosine = 0.5 * (1.0 + std::cos(std::numbers::pi * step / decay_steps_));
    return from * ((1.0 - alpha) * cosine + alpha);
  };
  double step = static_cast<double>(step_in);
  if (!options_.warmup_target) return decay(std::min(step, decay_steps_), initial_learning_rate_);
  const double target = *options_.warmup_target, warmup = options_.warmup_steps;
  step = std::min(step, decay_steps_ + warmup);
  if (step < warmup) return (target - initial_learning_rate_) * (step / warmup) + initial_learning_rate_;
  return decay(step - warmup, target);
}

KERAS_FIELDS(CosineDecayOptions, alpha, name, warmup_target, warmup_steps)

json CosineDecay::get_config() const {
  json c = schedule_config(
      {{"initial_learning_rate", initial_learning_rate_}, {"decay_steps", steps_json(decay_steps_)}}, options_);
  c["warmup_steps"] = steps_json(options_.warmup_steps);  // a step count, written as Keras does
  return c;
}

std::shared_ptr<LearningRateSchedule> CosineDecay::from_config(const json& c) {
  const std::string owner = "CosineDecay";
  // One statement each: a missing value is reported in the order Keras lists them.
  const double initial = required_number(c, "initial_learning_rate", owner);
  const double decay_steps = required_number(c, "decay_steps", owner);
  return std::make_shared<CosineDecay>(initial, decay_steps, schedule_options<CosineDecayOptions>(c));
}

}  // namespace keras::optimizers::schedules
