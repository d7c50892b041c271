#pragma once
// CosineDecayRestarts (keras.optimizers.schedules.CosineDecayRestarts): SGDR, cosine decay with warm restarts.
#include <optional>
#include <string>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct CosineDecayRestartsOptions {
  double t_mul = 2.0;  // each period is t_mul times longer than the previous one
  double m_mul = 1.0;  // each restart starts from m_mul times the previous initial rate
  double alpha = 0.0;  // the floor, as a fraction of initial_learning_rate
  std::optional<std::string> name = std::nullopt;
};

/// Cosine decay from initial_learning_rate over first_decay_steps, then restarts (Loshchilov & Hutter).
class CosineDecayRestarts : public LearningRateSchedule {
 public:
  CosineDecayRestarts(double initial_learning_rate, double first_decay_steps, CosineDecayRestartsOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "CosineDecayRestarts"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  double initial_learning_rate_, first_decay_steps_;
  CosineDecayRestartsOptions options_;
};

}  // namespace keras::optimizers::schedules
