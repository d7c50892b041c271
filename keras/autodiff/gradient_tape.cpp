#include "keras/autodiff/gradient_tape.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "keras/autodiff/gradient_ready.hpp"
#include "keras/function/trace.hpp"
#include "keras/ops/math.hpp"
#include "keras/profiler/trace_hooks.hpp"
#include "keras/variable.hpp"

namespace keras {
namespace {
thread_local std::vector<GradientTape*> active_tapes;
thread_local bool no_grad = false;
thread_local autodiff::GradientReadyFn* ready_hook = nullptr;

// For each record, the sources whose last backward contribution it makes (the first record, in forward
// order, that reads them): once the backward pass has handled that record, their gradients are final.
std::vector<std::vector<std::size_t>> sources_final_after(const std::vector<Tensor>& sources,
                                                          const std::vector<const std::vector<Tensor>*>& inputs) {
  std::unordered_map<const void*, std::vector<std::size_t>> pending;
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (sources[i].defined()) pending[sources[i].id()].push_back(i);
  std::vector<std::vector<std::size_t>> final_after(inputs.size());
  for (std::size_t r = 0; r < inputs.size() && !pending.empty(); ++r)
    for (const auto& in : *inputs[r]) {
      auto it = in.defined() ? pending.find(in.id()) : pending.end();
      if (it == pending.end()) continue;
      final_after[r].insert(final_after[r].end(), it->second.begin(), it->second.end());
      pending.erase(it);
    }
  return final_after;
}
}  // namespace

GradientTape::GradientTape(bool persistent, bool watch_accessed_variables)
    : persistent_(persistent), watch_accessed_variables_(watch_accessed_variables) {
  active_tapes.push_back(this);
}

GradientTape::~GradientTape() {
  auto it = std::find(active_tapes.begin(), active_tapes.end(), this);
  if (it != active_tapes.end()) active_tapes.erase(it);
}

GradientTape::Pause::Pause(GradientTape* tape) : tape_(tape) { tape_->paused_ = true; }
GradientTape::Pause::~Pause() { tape_->paused_ = false; }

namespace {
// True when a live tape other than `self` records: self's backward pass is then recorded on it.
bool outer_tape_records(const GradientTape* self) {
  if (no_grad) return false;
  for (const GradientTape* tape : active_tapes)
    if (tape != self && tape->recording_now()) return true;
  return false;
}

// Sets a flag for a scope and puts back its previous value.
struct FlagScope {
  FlagScope(bool& flag, bool value) : flag_(flag), previous_(std::exchange(flag, value)) {}
  ~FlagScope() { flag_ = previous_; }
  bool& flag_;
  bool previous_;
};
}  // namespace

void GradientTape::watch(const Tensor& t) {
  if (!t.defined()) throw ValueError("GradientTape::watch: the tensor is undefined");
  if (t.dtype() != DType::float32 && t.dtype() != DType::float64)
    throw ValueError("GradientTape::watch: only float32 and float64 tensors have gradients, got " + t.str());
  watched_.insert(t.id());
}

bool GradientTape::watches(const Tensor& t) const {
  if (!t.defined()) return false;
  if (watch_accessed_variables_ && t.is_trainable_variable()) return true;
  return watched_.count(t.id()) > 0;
}

bool GradientTape::is_watched(const Tensor& t) const { return recording_now() && watches(t); }

void GradientTape::add_record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward,
                              OpInfo info) {
  watched_.insert(output.id());
  records_.push_back({output, inputs, std::move(backward), info});
}

std::vector<Tensor> GradientTape::recorded_backward(const Record& record, const Tensor& grad_out,
                                                    const std::vector<bool>& needs) {
  if (record.info.differentiable_backward) return record.backward(grad_out, needs);
  // A backward of raw kernels: its result would look constant to the outer tapes, so each new gradient
  // is recorded as an op whose own gradient throws (a second derivative through it is asked for).
  std::vector<Tensor> grads;
  {
    autodiff::NoGradScope raw;
    grads = record.backward(grad_out, needs);
  }
  std::vector<Tensor> depends_on = record.inputs;
  depends_on.push_back(grad_out);
  const std::string op = record.info.name;
  for (const Tensor& g : grads) {
    if (!g.defined()) continue;
    const bool known = std::any_of(depends_on.begin(), depends_on.end(), [&](const Tensor& t) { return t.id() == g.id(); });
    if (known) continue;  // an input handed through as is: the outer tapes already know it
    autodiff::record(g, depends_on, [op](const Tensor&, const std::vector<bool>&) -> std::vector<Tensor> {
      throw ValueError("GradientTape: a second derivative through '" + op +
                       "' is not supported: its gradient is computed by a kernel that no tape can differentiate. "
                       "Use differentiable ops in the function whose gradient you differentiate "
                       "(see README, 'Gradients of gradients'), or ops::custom_gradient with "
                       "{.differentiable_gradient = true} and a gradient built from keras::ops");
    }, {.name = "second-order gradient (unsupported)"});
  }
  return grads;
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target, const std::vector<Tensor>& sources,
                                           const Tensor& output_gradient) {
  if (used_ && !persistent_)
    throw ValueError("GradientTape.gradient can only be called once on a non-persistent tape; "
                     "create the tape with persistent = true to call it several times");
  used_ = true;
  if (!target.defined()) throw ValueError("GradientTape::gradient: the target tensor is undefined");
  if (persistent_ && std::any_of(given_.begin(), given_.end(), [&](const Tensor& t) { return t.id() == target.id(); }))
    throw ValueError("GradientTape::gradient: the target is a gradient this tape computed, and a tape does not "
                     "record its own backward pass. Compute the first gradient inside an outer GradientTape and "
                     "differentiate it with that outer tape: outer.gradient(f(inner.gradient(y, x)), x)");
  // Outer tapes record the backward pass (higher-order gradients); alone, the pass records nothing.
  const bool higher_order = outer_tape_records(this);
  std::optional<autodiff::NoGradScope> no_record;
  if (!higher_order) no_record.emplace();
  FlagScope self_paused(paused_, higher_order || paused_);  // this tape never records its own pass

  // A GradientReadyScope's hook hears of each source's gradient once final; gradient() calls made from
  // inside the pass (by the hook or a backward function) do not report to it.
  autodiff::GradientReadyFn* const hook = std::exchange(ready_hook, nullptr);
  struct RestoreHook {
    autodiff::GradientReadyFn* hook;
    ~RestoreHook() { ready_hook = hook; }
  } restore_hook{hook};
  std::vector<std::vector<std::size_t>> final_after;
  if (hook) {
    std::vector<const std::vector<Tensor>*> inputs;
    for (const auto& r : records_) inputs.push_back(&r.inputs);
    final_after = sources_final_after(sources, inputs);
  }

  // A non-persistent tape frees each gradient once used, except a source's (which may be an op's output).
  std::vector<const void*> source_ids;  // sorted, for a binary search per record
  if (!persistent_) {
    source_ids.reserve(sources.size());
    for (const auto& s : sources)
      if (s.defined()) source_ids.push_back(s.id());
    std::sort(source_ids.begin(), source_ids.end());
  }
  std::unordered_map<const void*, Tensor> grads;
  grads[target.id()] = output_gradient.defined()
                           ? output_gradient
                           : Tensor::ones(target.shape(), target.dtype() == DType::float64 ? DType::float64 : DType::float32);
  auto run_backward = [&](Record& record) {
    auto g = grads.find(record.output.id());
    if (g == grads.end()) return;
    std::vector<bool> needs(record.inputs.size());
    bool any = false;
    for (std::size_t i = 0; i < record.inputs.size(); ++i) {
      needs[i] = watches(record.inputs[i]);
      any = any || needs[i];
    }
    if (!any) return;
    Tensor grad_out = g->second;
    if (!persistent_ && !std::binary_search(source_ids.begin(), source_ids.end(), g->first)) grads.erase(g);
    profiler::Tracer* const tracer = profiler::tracer();  // the gradient as a traced op (keras/profiler)
    const std::int64_t begin = tracer ? profiler::now_ns() : 0;
    std::vector<Tensor> in_grads =
        higher_order ? recorded_backward(record, grad_out, needs) : record.backward(grad_out, needs);
    if (tracer) tracer->gradient(record.info.name, record.output, grad_out, in_grads, begin);
    for (std::size_t i = 0; i < record.inputs.size(); ++i) {
      if (!needs[i] || i >= in_grads.size() || !in_grads[i].defined()) continue;
      auto [slot, inserted] = grads.try_emplace(record.inputs[i].id(), in_grads[i]);
      if (!inserted) slot->second = ops::add(slot->second, in_grads[i]);
    }
  };
  for (std::size_t r = records_.size(); r-- > 0;) {
    run_backward(records_[r]);
    if (!hook) continue;
    for (std::size_t source : final_after[r]) {
      auto g = grads.find(sources[source].id());
      if (g != grads.end()) (*hook)(source, g->second);
    }
  }
  std::vector<Tensor> result;
  result.reserve(sources.size());
  for (const auto& s : sources) {
    auto g = grads.find(s.id());
    result.push_back(g == grads.end() ? Tensor() : g->second);
  }
  if (!persistent_) records_.clear();
  else
    for (const auto& r : result)
      if (r.defined()) given_.push_back(r);
  return result;
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target, const std::vector<std::shared_ptr<Variable>>& sources) {
  std::vector<Tensor> values;
  values.reserve(sources.size());
  for (const auto& v : sources) values.push_back(v->value());
  return gradient(target, values);
}

namespace autodiff {

// A tracer (keras/profiler) hears the ops run outside any tape too; a compiled function being traced
// records too: it keeps the backward closures for its replays.
bool recording() { return !no_grad && (!active_tapes.empty() || profiler::tracer() || jit::tracing()); }

void record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward, OpInfo info) {
  if (!recording()) return;
  if (profiler::Tracer* tracer = profiler::tracer()) tracer->op(info.name, output, inputs);
  if (jit::tracing()) jit::detail::active_trace->record(output, inputs, backward, info);
  for (GradientTape* tape : active_tapes) {
    bool any = false;
    for (const auto& in : inputs) any = any || tape->is_watched(in);
    if (any) tape->add_record(output, inputs, backward, info);
  }
}

GradientReadyScope::GradientReadyScope(GradientReadyFn on_ready)
    : previous_(ready_hook), on_ready_(std::move(on_ready)) {
  ready_hook = &on_ready_;
}
GradientReadyScope::~GradientReadyScope() { ready_hook = previous_; }
GradientReadyFn* gradient_ready_hook() { return ready_hook; }

NoGradScope::NoGradScope() : previous_(no_grad) { no_grad = true; }
NoGradScope::~NoGradScope() { no_grad = previous_; }

}  // namespace autodiff
}  // namespace keras
