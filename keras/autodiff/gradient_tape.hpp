#pragma once
// GradientTape: records the ops run while it is alive, then differentiates a target with respect to
// watched tensors (trainable variables are watched automatically), as tf.GradientTape does.
#include <functional>
#include <memory>
#include <unordered_set>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

class Variable;

/// Given the gradient of an op's output, returns one gradient per input (undefined where
/// `needs[i]` is false or the input is not differentiable).
using BackwardFn = std::function<std::vector<Tensor>(const Tensor& grad_output, const std::vector<bool>& needs)>;

class GradientTape {
 public:
  explicit GradientTape(bool persistent = false, bool watch_accessed_variables = true);
  ~GradientTape();
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  /// Makes gradients with respect to `t` available.
  void watch(const Tensor& t);
  /// d target / d source for each source; an undefined tensor where the target does not depend on it.
  /// `output_gradient` seeds the backward pass (ones when undefined).
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Tensor>& sources,
                               const Tensor& output_gradient = Tensor());
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<std::shared_ptr<Variable>>& sources);
  Tensor gradient(const Tensor& target, const Tensor& source) { return gradient(target, std::vector{source})[0]; }

  /// Pauses recording inside a scope: `{ auto pause = tape.stop_recording(); ... }`.
  struct Pause {
    explicit Pause(GradientTape* tape);
    ~Pause();
    GradientTape* tape_;
  };
  Pause stop_recording() { return Pause(this); }

  // Used by ops (through autodiff::record), not by users.
  bool is_watched(const Tensor& t) const;
  void add_record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward);

 private:
  struct Record {
    Tensor output;
    std::vector<Tensor> inputs;
    BackwardFn backward;
  };
  std::vector<Record> records_;
  std::unordered_set<const void*> watched_;
  bool persistent_;
  bool watch_accessed_variables_;
  bool used_ = false;
  bool paused_ = false;
};

namespace autodiff {
/// True when at least one tape on this thread is recording (ops skip building closures otherwise).
bool recording();
/// Records `output = op(inputs)` on every active tape that watches one of the inputs.
void record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward);
/// While alive, no tape on this thread records (inference, metric updates, optimizer steps).
class NoGradScope {
 public:
  NoGradScope();
  ~NoGradScope();
 private:
  bool previous_;
};
}  // namespace autodiff

}  // namespace keras
