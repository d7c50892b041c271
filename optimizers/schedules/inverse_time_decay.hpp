#pragma once
// InverseTimeDecay (keras.optimizers.schedules.InverseTimeDecay).
#include <optional>
#include <string>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct InverseTimeDecayOptions {
  bool staircase = false;  // decay in discrete intervals: floor(step / decay_steps)
  std::optional<std::string> name = std::nullopt;
};

/// initial_learning_rate / (1 + decay_rate * step / decay_steps).
class InverseTimeDecay : public LearningRateSchedule {
 public:
  InverseTimeDecay(double initial_learning_rate, double decay_steps, double decay_rate,
                   InverseTimeDecayOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "InverseTimeDecay"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  double initial_learning_rate_, decay_steps_, decay_rate_;
  InverseTimeDecayOptions options_;
};

}  // namespace keras::optimizers::schedules
