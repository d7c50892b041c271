#pragma once
// PiecewiseConstantDecay (keras.optimizers.schedules.PiecewiseConstantDecay).
#include <optional>
#include <string>
#include <vector>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

struct PiecewiseConstantDecayOptions {
  std::optional<std::string> name = std::nullopt;
};

/// values[0] while step <= boundaries[0], values[i] while boundaries[i-1] < step <= boundaries[i],
/// values.back() after the last boundary. Boundaries are steps (integers), as Keras compares them.
class PiecewiseConstantDecay : public LearningRateSchedule {
 public:
  PiecewiseConstantDecay(std::vector<std::int64_t> boundaries, std::vector<double> values,
                         PiecewiseConstantDecayOptions options = {});

  double operator()(std::int64_t step) const override;
  std::string class_name() const override { return "PiecewiseConstantDecay"; }
  json get_config() const override;
  static std::shared_ptr<LearningRateSchedule> from_config(const json& config);

 private:
  std::vector<std::int64_t> boundaries_;
  std::vector<double> values_;
  PiecewiseConstantDecayOptions options_;
};

}  // namespace keras::optimizers::schedules
