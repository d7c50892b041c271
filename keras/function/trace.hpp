#pragma once
// Trace: the static graph of one compiled-function signature. Built by running the function once on
// private input buffers while the ops capture themselves (keras/function/capture.hpp) and the tape hook
// hands over the backward closures; replayed afterwards by copying new inputs into the buffers and
// running the captured kernels in order, into the buffers the first run allocated. The recorded backward
// closures keep those same buffers, so a gradient after a replay runs them as they were recorded, with
// the slots of the gradient pass resolved once (no hash maps, no tape).
//
// A trace is valid only if everything the function computed went through captured ops. It records why
// not otherwise (the first reason): a tensor made by an op without a replay hook and read by a later op
// or returned, a value read into C++ (item(): data-dependent control flow), an in-place write into a
// tensor that outlives the run from a value the trace cannot replay (a variable assigned from such a
// tensor, or from another dtype). A variable assigned from a replayable value (BatchNormalization's moving
// statistics in training) replays as a copy in its place. An invalid trace is never replayed.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"

namespace keras::jit {

using Body = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

class Trace {
 public:
  /// watch_inputs: gradients flow to the (float) inputs, as when a tape watches them.
  explicit Trace(bool watch_inputs) : watch_inputs_(watch_inputs) {}
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  /// Runs `body` once on copies of `inputs` while capturing, and returns its outputs (the first call's
  /// results, computed eagerly). Afterwards valid() tells whether the trace may be replayed.
  std::vector<Tensor> run(const Body& body, const std::vector<Tensor>& inputs);
  bool valid() const { return reason_.empty(); }
  /// Why the trace cannot be replayed ("" when it can).
  const std::string& reason() const { return reason_; }
  /// False when a variable the trace reads changed its trainable flag since (then retrace).
  bool current() const;

  /// Copies `inputs` into the input buffers and reruns the captured ops; returns the output buffers
  /// (overwritten by the next replay).
  const std::vector<Tensor>& replay(const std::vector<Tensor>& inputs);
  const std::vector<Tensor>& outputs() const { return outputs_; }
  const std::vector<Tensor>& input_buffers() const { return inputs_; }
  /// The trainable variables the recorded ops read (each once, in first-use order).
  const std::vector<Tensor>& variables() const { return variables_; }
  /// Bumped by each replay: a gradient asked of an older call cannot be given (its buffers changed).
  std::uint64_t generation() const { return generation_; }
  std::size_t op_count() const { return steps_.size(); }
  std::size_t record_count() const { return records_.size(); }

  /// d target / d source for each source (undefined where none), from the recorded backward closures, as
  /// a non-persistent GradientTape gives it (same closures, same order of accumulation). `target` is one
  /// of outputs(); `seed` its gradient (ones when undefined). The first gradient for a (target, sources)
  /// pair traces the gradient pass too: when every kernel of it was captured, later ones replay it into
  /// the same gradient buffers (overwritten by the next gradient: use them before), else they run the
  /// closures again.
  std::vector<Tensor> gradient(const Tensor& target, const std::vector<Tensor>& sources, const Tensor& seed = Tensor());
  /// True when the gradient for this target and these sources replays a traced gradient pass.
  bool gradient_replays(const Tensor& target, const std::vector<Tensor>& sources, bool seeded = false) const;

  // The hooks (capture.hpp, the tape).
  void capture(const char* op, const std::vector<Tensor>& inputs, std::initializer_list<Tensor> outputs,
               ReplayFn replay);
  void constant(const Tensor& t) { mark(live_, t); }
  void born(const Tensor& t) { mark(born_, t); }
  void invalidate(std::string why) {
    std::string& reason = in_backward_ ? backward_reason_ : reason_;
    if (reason.empty()) reason = std::move(why);
  }
  void assigned(const Tensor& target, const Tensor& source, const char* what);
  void record(const Tensor& output, const std::vector<Tensor>& inputs, const BackwardFn& backward, OpInfo info);

 private:
  enum class Origin { live, born_unknown, external };
  using Ranges = std::map<std::uintptr_t, std::uintptr_t>;  // begin -> end of buffers
  static void mark(Ranges& ranges, const Tensor& t);
  static bool contains(const Ranges& ranges, const Tensor& t);
  Origin origin(const Tensor& t) const;
  void note_external(const Tensor& t);
  void finish();  // checks the records and outputs, resolves the gradient slots

  struct Step {
    const char* op;
    ReplayFn replay;
  };
  struct Record {
    Tensor output;
    std::vector<Tensor> inputs;
    BackwardFn backward;
    OpInfo info;
    // Resolved by finish(): gradient slots and which inputs need a gradient.
    std::size_t out_slot = 0;
    std::vector<std::size_t> in_slots;
    std::vector<bool> needs;
  };
  bool watches(const Tensor& t) const;
  // One traced gradient pass: for a target, a seed or not, and the sources (their ids: the key).
  struct Plan {
    std::vector<const void*> key;
    std::vector<Step> steps;
    Tensor seed;
    std::vector<Tensor> grads;
    bool replayable = false;
  };
  static std::vector<const void*> plan_key(const Tensor& target, const std::vector<Tensor>& sources, bool seeded);
  std::vector<Tensor> run_backward(const Tensor& target, const std::vector<Tensor>& sources, const Tensor& start) const;

  bool watch_inputs_;
  std::string reason_;
  std::vector<Tensor> inputs_, outputs_;
  std::vector<Step> steps_;
  std::vector<Record> records_;
  std::vector<const void*> watched_;  // ids of watched inputs and record outputs, while tracing
  std::vector<Tensor> variables_;
  std::vector<std::pair<Tensor, bool>> externals_;  // tensors from outside read by ops, trainable at trace
  Ranges born_, live_;
  std::map<const void*, std::size_t> slot_of_;      // gradient slot of each tensor id in the records
  std::uint64_t generation_ = 0;
  std::vector<Plan> plans_;
  bool in_backward_ = false;              // tracing a gradient pass: captures go to `backward_steps_`
  std::vector<Step>* backward_steps_ = nullptr;
  std::string backward_reason_;
};

}  // namespace keras::jit
