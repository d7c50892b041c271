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

/// What a tape knows of an op besides its backward function.
struct OpInfo {
  /// The op's name, for error messages ("conv2d").
  const char* name = "an op";
  /// True when the backward function computes with recorded keras::ops whenever a tape records (so an
  /// outer tape can differentiate the backward pass: gradients of gradients). False for a backward
  /// written with raw loops or kernels: a second derivative through such an op throws.
  bool differentiable_backward = false;
};

class GradientTape {
 public:
  explicit GradientTape(bool persistent = false, bool watch_accessed_variables = true);
  ~GradientTape();
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  /// Makes gradients with respect to `t` available.
  void watch(const Tensor& t);
  /// d target / d source for each source; an undefined tensor where the target does not depend on it.
  /// `output_gradient` seeds the backward pass (ones when undefined). When another live tape records
  /// (an outer tape, not paused), the backward pass is recorded on it: the gradients are differentiable.
  /// A tape does not record its own backward pass: differentiate a gradient with an outer tape.
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
  /// False while paused, and once a non-persistent tape has given its gradient.
  bool recording_now() const { return !paused_ && !(used_ && !persistent_); }
  void add_record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward, OpInfo info = {});

 private:
  struct Record {
    Tensor output;
    std::vector<Tensor> inputs;
    BackwardFn backward;
    OpInfo info;
  };
  bool watches(const Tensor& t) const;  // is_watched, paused or not
  // Runs one record's backward while outer tapes record (the higher-order path).
  std::vector<Tensor> recorded_backward(const Record& record, const Tensor& grad_out, const std::vector<bool>& needs);
  std::vector<Record> records_;
  std::unordered_set<const void*> watched_;
  bool persistent_;
  bool watch_accessed_variables_;
  bool used_ = false;
  bool paused_ = false;
  std::vector<Tensor> given_;  // a persistent tape's results, to explain a gradient asked of one
};

namespace autodiff {
/// True when at least one tape on this thread is recording (ops skip building closures otherwise).
/// Inside a backward function it is true only when an outer tape records the backward pass: a
/// backward with `OpInfo::differentiable_backward` then computes with keras::ops, not raw kernels.
bool recording();
/// Records `output = op(inputs)` on every active tape that watches one of the inputs.
void record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward, OpInfo info = {});
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
