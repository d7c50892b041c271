#pragma once
// PolynomialDecay (keras.optimizers.schedules.PolynomialDecay).
#include <optional>
#include <string>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct PolynomialDecayOptions {
  double end_learning_rate = 0.0001;
  double power = 1.0;
  bool cycle = false;  // restart the decay every decay_steps (stretched by ceil(step / decay_steps))
  std::optional<std::string> name = std::nullopt;
};

/// (initial - end) * (1 - min(step, decay_steps) / decay_steps) ^ power + end.
class PolynomialDecay : public LearningRateSchedule {
 public:
  PolynomialDecay(double initial_learning_rate, double decay_steps, PolynomialDecayOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "PolynomialDecay"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  double initial_learning_rate_, decay_steps_;
  PolynomialDecayOptions options_;
};

}  // namespace keras::optimizers::schedules
