#include "keras/autodiff/gradient_tape.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "keras/autodiff/gradient_ready.hpp"
#include "keras/ops/math.hpp"
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

void GradientTape::watch(const Tensor& t) {
  if (!t.defined()) throw ValueError("GradientTape::watch: the tensor is undefined");
  if (t.dtype() != DType::float32)
    throw ValueError("GradientTape::watch: only float32 tensors have gradients, got " + t.str());
  watched_.insert(t.id());
}

bool GradientTape::is_watched(const Tensor& t) const {
  if (paused_ || !t.defined()) return false;
  if (watch_accessed_variables_ && t.is_trainable_variable()) return true;
  return watched_.count(t.id()) > 0;
}

void GradientTape::add_record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward) {
  watched_.insert(output.id());
  records_.push_back({output, inputs, std::move(backward)});
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target, const std::vector<Tensor>& sources,
                                           const Tensor& output_gradient) {
  if (used_ && !persistent_)
    throw ValueError("GradientTape.gradient can only be called once on a non-persistent tape; "
                     "create the tape with persistent = true to call it several times");
  used_ = true;
  if (!target.defined()) throw ValueError("GradientTape::gradient: the target tensor is undefined");
  autodiff::NoGradScope no_record;  // the backward pass itself is not differentiated

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

  std::unordered_map<const void*, Tensor> grads;
  grads[target.id()] = output_gradient.defined() ? output_gradient : Tensor::ones(target.shape());
  auto run_backward = [&](Record& record) {
    auto g = grads.find(record.output.id());
    if (g == grads.end()) return;
    std::vector<bool> needs(record.inputs.size());
    bool any = false;
    for (std::size_t i = 0; i < record.inputs.size(); ++i) {
      needs[i] = is_watched(record.inputs[i]);
      any = any || needs[i];
    }
    if (!any) return;
    Tensor grad_out = g->second;
    if (!persistent_) grads.erase(g);
    std::vector<Tensor> in_grads = record.backward(grad_out, needs);
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
  return result;
}

std::vector<Tensor> GradientTape::gradient(const Tensor& target, const std::vector<std::shared_ptr<Variable>>& sources) {
  std::vector<Tensor> values;
  values.reserve(sources.size());
  for (const auto& v : sources) values.push_back(v->value());
  return gradient(target, values);
}

namespace autodiff {

bool recording() { return !no_grad && !active_tapes.empty(); }

void record(const Tensor& output, const std::vector<Tensor>& inputs, BackwardFn backward) {
  if (!recording()) return;
  for (GradientTape* tape : active_tapes) {
    bool any = false;
    for (const auto& in : inputs) any = any || tape->is_watched(in);
    if (any) tape->add_record(output, inputs, backward);
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
