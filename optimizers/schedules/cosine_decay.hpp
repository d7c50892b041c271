#pragma once
// CosineDecay (keras.optimizers.schedules.CosineDecay), with the optional linear warmup of tf.keras 2.13.
#include <optional>
#include <string>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct CosineDecayOptions {
  double alpha = 0.0;  // the floor, as a fraction of the rate decayed from
  std::optional<std::string> name = std::nullopt;
  std::optional<double> warmup_target = std::nullopt;  // set: warm up linearly to it, then decay from it
  double warmup_steps = 0;
};

/// Without warmup: initial * ((1 - alpha) * 0.5 * (1 + cos(pi * min(step, decay_steps) / decay_steps)) + alpha).
/// With warmup_target: rises linearly from initial to warmup_target over warmup_steps, then decays
/// from warmup_target as above over decay_steps.
class CosineDecay : public LearningRateSchedule {
 public:
  CosineDecay(double initial_learning_rate, double decay_steps, CosineDecayOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "CosineDecay"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  double initial_learning_rate_, decay_steps_;
  CosineDecayOptions options_;
};

}  // namespace keras::optimizers::schedules
