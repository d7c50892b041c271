#pragma once
// TrainSpec, EvalSpec and train_and_evaluate (tf.estimator's, local mode): trains up to
// train_spec.max_steps; after a checkpoint is saved, evaluates when throttle_secs have passed since the
// last evaluation; evaluates the final checkpoint at the end. Returns the last evaluation's metrics.
// (start_delay_secs applies to tf's separate evaluator process; a local run, as here, does not wait.)
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "keras/estimator/base_estimator.hpp"

namespace keras::estimator {

struct TrainSpec {
  InputFn input_fn{};
  std::optional<std::int64_t> max_steps{};
  std::vector<callbacks::CallbackRef> hooks{};
};

struct EvalSpec {
  InputFn input_fn{};
  /// Batches per evaluation (unset: all of input_fn's data).
  std::optional<std::int64_t> steps = 100;
  std::string name{};
  double start_delay_secs = 120;
  /// At least this long between two evaluations.
  double throttle_secs = 600;
};

struct TrainAndEvaluateResult {
  /// The last evaluation's metrics (with "global_step").
  std::map<std::string, double> metrics;
  /// The global step of every evaluation run, in order.
  std::vector<std::int64_t> evaluated_steps;
};

TrainAndEvaluateResult train_and_evaluate(Estimator& estimator, const TrainSpec& train_spec, const EvalSpec& eval_spec);

}  // namespace keras::estimator
