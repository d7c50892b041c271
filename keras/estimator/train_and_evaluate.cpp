// train_and_evaluate, local mode (see train_and_evaluate.hpp).
#include "keras/estimator/train_and_evaluate.hpp"

#include <chrono>

#include "keras/errors.hpp"

namespace keras::estimator {

TrainAndEvaluateResult train_and_evaluate(Estimator& estimator, const TrainSpec& train_spec, const EvalSpec& eval_spec) {
  if (!train_spec.input_fn) throw ValueError("train_and_evaluate: TrainSpec needs an input_fn");
  if (!eval_spec.input_fn) throw ValueError("train_and_evaluate: EvalSpec needs an input_fn");
  if (eval_spec.throttle_secs < 0) throw ValueError("train_and_evaluate: throttle_secs must be >= 0");
  using Clock = std::chrono::steady_clock;
  TrainAndEvaluateResult result;
  std::optional<Clock::time_point> last_eval;
  auto evaluate = [&](std::int64_t step) {
    if (!result.evaluated_steps.empty() && result.evaluated_steps.back() == step) return;
    result.metrics = estimator.evaluate(eval_spec.input_fn, {.steps = eval_spec.steps, .name = eval_spec.name});
    result.evaluated_steps.push_back(step);
    last_eval = Clock::now();
  };
  TrainArgs args{.max_steps = train_spec.max_steps, .hooks = train_spec.hooks};
  args.saving_listeners.push_back([&](const std::string&, std::int64_t step) {
    if (!last_eval || std::chrono::duration<double>(Clock::now() - *last_eval).count() >= eval_spec.throttle_secs)
      evaluate(step);
  });
  estimator.train(train_spec.input_fn, args);
  evaluate(estimator.global_step());  // the final checkpoint, unless just evaluated
  return result;
}

}  // namespace keras::estimator
