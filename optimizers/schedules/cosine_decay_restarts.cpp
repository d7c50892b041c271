#include "optimizers/schedules/cosine_decay_restarts.hpp"

#include <cmath>
#include <numbers>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/schedules/schedule_config.hpp"

namespace keras::optimizers::schedules {
namespace {
const bool registered = register_class<LearningRateSchedule, CosineDecayRestarts>("CosineDecayRestarts");
}  // namespace

CosineDecayRestarts::CosineDecayRestarts(double initial_learning_rate, double first_decay_steps,
                                         CosineDecayRestartsOptions options)
    : initial_learning_rate_(initial_learning_rate),
      first_decay_steps_(first_decay_steps),
      options_(std::move(options)) {
  if (!(first_decay_steps_ > 0))
    throw ValueError("CosineDecayRestarts: `first_decay_steps` must be > 0, got " + std::to_string(first_decay_steps_));
  if (!(options_.t_mul > 0))
    throw ValueError("CosineDecayRestarts: `t_mul` must be > 0, got " + std::to_string(options_.t_mul));
}

double CosineDecayRestarts::operator()(std::int64_t step) const {
  const double t_mul = options_.t_mul;
  double fraction = static_cast<double>(step) / first_decay_steps_;
  double i_restart;
  if (t_mul == 1.0) {
    i_restart = std::floor(fraction);
    fraction -= i_restart;
  } else {
    // Periods grow geometrically: find the restart index from the sum of the series.
    i_restart = std::floor(std::log(1.0 - fraction * (1.0 - t_mul)) / std::log(t_mul));
    const double sum_r = (1.0 - std::pow(t_mul, i_restart)) / (1.0 - t_mul);
    fraction = (fraction - sum_r) / std::pow(t_mul, i_restart);
  }
  const double cosine =
      0.5 * std::pow(options_.m_mul, i_restart) * (1.0 + std::cos(std::numbers::pi * fraction));
  return initial_learning_rate_ * ((1.0 - options_.alpha) * cosine + options_.alpha);
}

KERAS_FIELDS(CosineDecayRestartsOptions, t_mul, m_mul, alpha, name)

json CosineDecayRestarts::get_config() const {
  return schedule_config(
      {{"initial_learning_rate", initial_learning_rate_}, {"first_decay_steps", steps_json(first_decay_steps_)}},
      options_);
}

std::shared_ptr<LearningRateSchedule> CosineDecayRestarts::from_config(const json& c) {
  const std::string owner = "CosineDecayRestarts";
  // One statement each: a missing value is reported in the order Keras lists them.
  const double initial = required_number(c, "initial_learning_rate", owner);
  const double first_decay_steps = required_number(c, "first_decay_steps", owner);
  return std::make_shared<CosineDecayRestarts>(initial, first_decay_steps,
                                               schedule_options<CosineDecayRestartsOptions>(c));
}

}  // namespace keras::optimizers::schedules
