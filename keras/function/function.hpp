#pragma once
// keras::function: a compiled function (tf.function). The first call with a new input signature (each
// input's shape and dtype) traces the callable into a static graph (keras/function/trace.hpp); later
// calls with that signature replay the graph into the buffers of the trace, with no shape checks, no
// allocation of outputs and no tape bookkeeping. Gradients: under a recording GradientTape a replayed
// call is one tape record per output whose backward runs the recorded backward closures of the trace.
// A call the trace cannot capture (an op without a replay hook, a value read into C++, a variable
// assigned inside) runs eagerly instead, with a one-time warning; results never differ from eager ones.
//
//   auto f = keras::function([&](const std::vector<keras::Tensor>& in) { return model.call_all(in); });
//   auto y = f({x});   // traces; f({x2}) replays; f({x3 of another batch size}) traces again
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keras/function/trace.hpp"

namespace keras {

struct FunctionOptions {
  /// Shown in warnings.
  std::string name = "function";
  /// Gradients flow to the float inputs (when a tape watches them); false for data-only inputs (cheaper).
  bool watch_inputs = true;
  /// As tf.function: warn once when this many of the last 2 x threshold calls traced anew (retracing).
  int retrace_warning_threshold = 5;
};

class Function {
 public:
  using Body = jit::Body;
  explicit Function(Body body, FunctionOptions options = {});

  /// Traces (new signature) or replays; returns fresh tensors.
  std::vector<Tensor> operator()(const std::vector<Tensor>& inputs);
  /// How many traces were made (tf.function's experimental_get_tracing_count).
  int tracing_count() const { return traces_; }
  /// True when calls with this signature run eagerly (their trace could not capture the function).
  bool runs_eagerly(const std::vector<Tensor>& inputs) const;
  /// The trace of this signature (null before its first call or once it runs eagerly), for inspection.
  std::shared_ptr<const jit::Trace> trace_for(const std::vector<Tensor>& inputs) const;

  /// One call for the framework's own use: `trace` is null when the signature runs eagerly; `replayed`
  /// says whether `outputs` are the trace's buffers (overwritten by the next call) or a first, traced run.
  struct Call {
    jit::Trace* trace = nullptr;
    bool replayed = false;
    std::vector<Tensor> outputs;
  };
  Call call(const std::vector<Tensor>& inputs);

 private:
  struct Entry {
    std::vector<std::int64_t> signature;
    std::shared_ptr<jit::Trace> trace;  // shared with the tape records of replayed calls
    bool eager = false;
  };
  Entry* find(const std::vector<std::int64_t>& signature) const;
  void note_trace();

  Body body_;
  FunctionOptions options_;
  std::vector<std::unique_ptr<Entry>> entries_;
  int traces_ = 0;
  std::int64_t calls_ = 0;
  std::vector<std::int64_t> trace_calls_;  // the call numbers that traced (the recent ones)
  bool warned_retracing_ = false, warned_eager_ = false;
};

/// Compiles `body` (see Function).
Function function(Function::Body body, FunctionOptions options = {});

}  // namespace keras
