#pragma once
// A schedule's config: its positional values (written and read by each schedule, as Keras requires them)
// plus the fields KERAS_FIELDS lists for its options struct:
//
//   KERAS_FIELDS(ExponentialDecayOptions, staircase, name)
//   json ExponentialDecay::get_config() const {
//     return schedule_config({{"initial_learning_rate", ...}, ...}, options_);
//   }
//   ... std::make_shared<ExponentialDecay>(..., schedule_options<ExponentialDecayOptions>(c));
#include "keras/config/codec.hpp"
#include "optimizers/schedules/learning_rate_schedule.hpp"

namespace keras::optimizers::schedules {

/// The positional values plus the listed fields of `options`.
template <class Options>
json schedule_config(json positional, const Options& options) {
  config::write_fields(positional, options);
  return positional;
}

/// The listed fields of an options struct (absent keys keep the defaults).
template <class Options>
Options schedule_options(const json& config) {
  Options options{};
  config::read_fields(config, options);
  return options;
}

}  // namespace keras::optimizers::schedules
