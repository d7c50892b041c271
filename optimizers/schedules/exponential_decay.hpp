#pragma once
// ExponentialDecay (keras.optimizers.schedules.ExponentialDecay).
#include <optional>
#include <string>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct ExponentialDecayOptions {
  bool staircase = false;  // decay in discrete intervals: floor(step / decay_steps)
  std::optional<std::string> name = std::nullopt;
};

/// initial_learning_rate * decay_rate ^ (step / decay_steps).
class ExponentialDecay : public LearningRateSchedule {
 public:
  ExponentialDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                   ExponentialDecayOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "ExponentialDecay"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  double initial_learning_rate_, decay_steps_, decay_rate_;
  ExponentialDecayOptions options_;
};

}  // namespace keras::optimizers::schedules
