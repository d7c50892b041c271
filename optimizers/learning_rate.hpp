#pragma once
// LearningRate: what an optimizer's `learning_rate` option holds, a number or a schedule, so that
// `.learning_rate = 1e-3`, `.learning_rate = schedules::ExponentialDecay(0.1, 1000, 0.96)` and
// `.learning_rate = [](std::int64_t step) { return ...; }` all work.
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers {

class LearningRate {
 public:
  LearningRate(double value) : value_(value) {}
  LearningRate(std::shared_ptr<schedules::LearningRateSchedule> schedule);
  template <class S>
    requires std::derived_from<S, schedules::LearningRateSchedule>
  LearningRate(std::shared_ptr<S> schedule)
      : LearningRate(std::shared_ptr<schedules::LearningRateSchedule>(std::move(schedule))) {}
  /// A schedule object (copied).
  template <class S>
    requires std::derived_from<std::decay_t<S>, schedules::LearningRateSchedule>
  LearningRate(S&& schedule) : schedule_(std::make_shared<std::decay_t<S>>(std::forward<S>(schedule))) {}
  /// Any callable step -> learning rate (wrapped in a schedules::LambdaSchedule).
  template <class F>
    requires(!std::derived_from<std::decay_t<F>, schedules::LearningRateSchedule> &&
             !std::is_arithmetic_v<std::decay_t<F>> && std::is_invocable_r_v<double, F&, std::int64_t>)
  LearningRate(F&& fn)
      : schedule_(std::make_shared<schedules::LambdaSchedule>(
            std::function<double(std::int64_t)>(std::forward<F>(fn)))) {}

  /// The learning rate at `step` (the constant when there is no schedule).
  double at(std::int64_t step) const { return schedule_ ? (*schedule_)(step) : value_; }
  bool is_schedule() const { return schedule_ != nullptr; }
  /// The schedule, or null for a constant.
  const std::shared_ptr<schedules::LearningRateSchedule>& schedule() const { return schedule_; }

 private:
  double value_ = 0.0;
  std::shared_ptr<schedules::LearningRateSchedule> schedule_{};
};

/// Keras's config value: the number, or the serialized schedule ({"class_name", "config"}) (a
/// LambdaSchedule cannot be serialized: Optimizer::get_config writes its current value instead).
json encode(const LearningRate& learning_rate);
/// A number or a serialized schedule.
void decode(const json& value, LearningRate& learning_rate);

}  // namespace keras::optimizers
