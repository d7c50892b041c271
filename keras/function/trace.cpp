#include "keras/function/trace.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "keras/kernels/parallel.hpp"
#include "keras/ops/math.hpp"

namespace keras::jit {

namespace detail {
thread_local Trace* active_trace = nullptr;

void born(const Tensor& t) {
  if (active_trace) active_trace->born(t);
}
void value_read(const char* what) {
  if (active_trace)
    active_trace->invalidate(fmt::format("{} read a tensor's value into C++ while tracing (the result may "
                                         "depend on the data, which a replay would not see)", what));
}
void assigned(const Tensor& target, const Tensor& source, const char* what) {
  if (active_trace) active_trace->assigned(target, source, what);
}
}  // namespace detail

void capture(const char* op, std::initializer_list<Tensor> inputs, std::initializer_list<Tensor> outputs,
             ReplayFn replay) {
  if (detail::active_trace) detail::active_trace->capture(op, std::vector<Tensor>(inputs), outputs, std::move(replay));
}

void capture(const char* op, const std::vector<Tensor>& inputs, std::initializer_list<Tensor> outputs,
             ReplayFn replay) {
  if (detail::active_trace) detail::active_trace->capture(op, inputs, outputs, std::move(replay));
}

void not_replayable(const std::string& why) {
  if (detail::active_trace) detail::active_trace->invalidate(why);
}

const Tensor& constant(const Tensor& t) {
  if (detail::active_trace) detail::active_trace->constant(t);
  return t;
}

void Trace::mark(Ranges& ranges, const Tensor& t) {
  if (!t.defined() || t.nbytes() == 0) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(t.raw_data());
  auto& end = ranges[begin];
  end = std::max<std::uintptr_t>(end, begin + t.nbytes());
}

bool Trace::contains(const Ranges& ranges, const Tensor& t) {
  const auto p = reinterpret_cast<std::uintptr_t>(t.raw_data());
  auto it = ranges.upper_bound(p);
  if (it == ranges.begin()) return false;
  --it;
  return p >= it->first && p < it->second;
}

Trace::Origin Trace::origin(const Tensor& t) const {
  if (contains(live_, t)) return Origin::live;
  return contains(born_, t) ? Origin::born_unknown : Origin::external;
}

void Trace::note_external(const Tensor& t) {
  for (const auto& [e, trainable] : externals_)
    if (e.id() == t.id()) return;
  externals_.emplace_back(t, t.is_trainable_variable());
}

void Trace::capture(const char* op, const std::vector<Tensor>& inputs, std::initializer_list<Tensor> outputs,
                    ReplayFn replay) {
  if (!(in_backward_ ? backward_reason_.empty() : valid())) return;
  for (const Tensor& in : inputs) {
    if (!in.defined() || in.nbytes() == 0) continue;
    switch (origin(in)) {
      case Origin::live: break;
      case Origin::external: note_external(in); break;
      case Origin::born_unknown:
        invalidate(fmt::format("'{}' read {} made inside the function by an op that cannot be replayed (it has "
                               "no replay hook)", op, in.str()));
        return;
    }
  }
  for (const Tensor& out : outputs) mark(live_, out);
  (in_backward_ ? *backward_steps_ : steps_).push_back({op, std::move(replay)});
}

void Trace::assigned(const Tensor& target, const Tensor& source, const char* what) {
  if (!target.defined() || target.nbytes() == 0 || origin(target) == Origin::born_unknown) return;
  if (source.dtype() != target.dtype() || target.dtype() == DType::string || source.nbytes() != target.nbytes()) {
    invalidate(fmt::format("{} wrote in place into {} from {}, which outlives one call (a variable assigned "
                           "inside the function from another dtype)", what, target.str(), source.str()));
    return;
  }
  if (source.raw_data() == target.raw_data()) return;  // assign() does nothing
  // The write replays in its place, from the source's buffer as the replay leaves it (capture refuses a
  // source the trace cannot recompute); later reads of the target see it as they did while tracing.
  capture(what, {source}, {}, [target, source]() mutable {
    std::memmove(target.raw_data(), source.raw_data(), target.nbytes());
    target.mark_modified();
  });
}

bool Trace::watches(const Tensor& t) const {
  if (!t.defined()) return false;
  if (t.is_trainable_variable()) return true;
  return std::find(watched_.begin(), watched_.end(), t.id()) != watched_.end();
}

void Trace::record(const Tensor& output, const std::vector<Tensor>& inputs, const BackwardFn& backward, OpInfo info) {
  if (!std::any_of(inputs.begin(), inputs.end(), [&](const Tensor& t) { return watches(t); })) return;
  watched_.push_back(output.id());
  for (const Tensor& in : inputs)
    if (in.defined() && in.is_trainable_variable() &&
        std::none_of(variables_.begin(), variables_.end(), [&](const Tensor& v) { return v.id() == in.id(); }))
      variables_.push_back(in);
  records_.push_back({output, inputs, backward, info});
}

std::vector<Tensor> Trace::run(const Body& body, const std::vector<Tensor>& inputs) {
  struct Activate {
    Trace* previous;
    explicit Activate(Trace* t) : previous(std::exchange(detail::active_trace, t)) {}
    ~Activate() { detail::active_trace = previous; }
  };
  {
    Activate active(this);
    for (const Tensor& in : inputs) {
      Tensor buffer = in.defined() ? in.clone() : Tensor();
      mark(live_, buffer);
      if (watch_inputs_ && buffer.defined() && is_floating(buffer.dtype())) watched_.push_back(buffer.id());
      inputs_.push_back(buffer);
    }
    outputs_ = body(inputs_);
  }
  finish();
  return outputs_;
}

void Trace::finish() {
  for (const Tensor& out : outputs_) {
    if (!out.defined() || out.nbytes() == 0) continue;
    const Origin o = origin(out);
    if (o == Origin::born_unknown)
      invalidate("the function returned " + out.str() + " made by an op that cannot be replayed (no replay hook)");
    if (o == Origin::external) note_external(out);
  }
  for (const Record& r : records_)
    if (r.output.defined() && r.output.nbytes() > 0 && origin(r.output) == Origin::born_unknown)
      invalidate(fmt::format("the op '{}' has no replay hook", r.info.name));
  auto slot = [&](const Tensor& t) {
    auto [it, inserted] = slot_of_.try_emplace(t.id(), slot_of_.size());
    return it->second;
  };
  for (Record& r : records_) {
    r.out_slot = slot(r.output);
    for (const Tensor& in : r.inputs) {
      r.in_slots.push_back(in.defined() ? slot(in) : 0);
      r.needs.push_back(watches(in));
    }
  }
  watched_.clear();
  watched_.shrink_to_fit();
  born_.clear();
}

bool Trace::current() const {
  return std::all_of(externals_.begin(), externals_.end(),
                     [](const auto& e) { return e.first.is_trainable_variable() == e.second; });
}

namespace {
// A batch of images is hundreds of KB: on two threads its copy into the input buffer takes half the time.
void copy_bytes(void* to, const void* from, std::size_t bytes) {
  constexpr std::int64_t kWord = sizeof(float);
  kernels::parallel_ranges(static_cast<std::int64_t>((bytes + kWord - 1) / kWord), [=](std::int64_t b, std::int64_t e) {
    const auto begin = static_cast<std::size_t>(b * kWord), end = std::min(bytes, static_cast<std::size_t>(e * kWord));
    std::memcpy(static_cast<char*>(to) + begin, static_cast<const char*>(from) + begin, end - begin);
  });
}
}  // namespace

const std::vector<Tensor>& Trace::replay(const std::vector<Tensor>& inputs) {
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const Tensor& buffer = inputs_[i];
    if (!buffer.defined() || buffer.nbytes() == 0) continue;
    if (buffer.dtype() == DType::string)
      std::copy_n(inputs[i].data<std::string>(), buffer.size(), buffer.data<std::string>());
    else
      copy_bytes(buffer.raw_data(), inputs[i].raw_data(), buffer.nbytes());
  }
  for (const Step& s : steps_)
    if (s.replay) s.replay();
  ++generation_;
  return outputs_;
}

std::vector<const void*> Trace::plan_key(const Tensor& target, const std::vector<Tensor>& sources, bool seeded) {
  static const char seeded_marker = 0;
  std::vector<const void*> key{target.id(), seeded ? &seeded_marker : nullptr};
  for (const Tensor& s : sources) key.push_back(s.defined() ? s.id() : nullptr);
  return key;
}

bool Trace::gradient_replays(const Tensor& target, const std::vector<Tensor>& sources, bool seeded) const {
  const auto key = plan_key(target, sources, seeded);
  return std::any_of(plans_.begin(), plans_.end(), [&](const Plan& p) { return p.key == key && p.replayable; });
}

// The pass of GradientTape::gradient (non-persistent, first order) over the trace's records, with the
// gradient slots resolved at the trace's end.
std::vector<Tensor> Trace::run_backward(const Tensor& target, const std::vector<Tensor>& sources,
                                        const Tensor& start) const {
  std::vector<Tensor> result(sources.size());
  auto target_slot = slot_of_.find(target.id());
  if (target_slot == slot_of_.end()) {  // the target depends on no recorded op
    for (std::size_t i = 0; i < sources.size(); ++i)
      if (sources[i].defined() && sources[i].id() == target.id()) result[i] = start;
    return result;
  }
  std::vector<Tensor> grads(slot_of_.size());
  grads[target_slot->second] = start;
  for (std::size_t k = records_.size(); k-- > 0;) {
    const Record& r = records_[k];
    if (!grads[r.out_slot].defined()) continue;
    if (std::none_of(r.needs.begin(), r.needs.end(), [](bool b) { return b; })) continue;
    const std::vector<Tensor> in_grads = r.backward(grads[r.out_slot], r.needs);
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      if (!r.needs[i] || i >= in_grads.size() || !in_grads[i].defined()) continue;
      Tensor& slot = grads[r.in_slots[i]];
      slot = slot.defined() ? ops::add(slot, in_grads[i]) : in_grads[i];
    }
  }
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i].defined()) continue;
    auto s = slot_of_.find(sources[i].id());
    if (s != slot_of_.end()) result[i] = grads[s->second];
  }
  return result;
}

std::vector<Tensor> Trace::gradient(const Tensor& target, const std::vector<Tensor>& sources, const Tensor& seed) {
  autodiff::NoGradScope no_grad;
  const bool seeded = seed.defined();
  if (seeded && seed.shape() != target.shape())
    throw ValueError("keras::function: the output gradient of shape " + shape_str(seed.shape()) +
                     " does not match the output of shape " + shape_str(target.shape()));
  const auto key = plan_key(target, sources, seeded);
  auto plan = std::find_if(plans_.begin(), plans_.end(), [&](const Plan& p) { return p.key == key; });
  if (plan != plans_.end() && plan->replayable) {  // the traced gradient pass, into its buffers
    if (seeded) std::memcpy(plan->seed.raw_data(), seed.raw_data(), seed.nbytes());
    for (const Step& s : plan->steps)
      if (s.replay) s.replay();
    return plan->grads;
  }
  const DType dtype = target.dtype() == DType::float64 ? DType::float64 : DType::float32;
  if (plan != plans_.end() || !valid())  // a pass that cannot be replayed: the closures again
    return run_backward(target, sources, seeded ? seed : Tensor::ones(target.shape(), dtype));
  // The first gradient for this key: run the closures while capturing their kernels.
  Plan fresh;
  fresh.key = key;
  struct Activate {
    Trace* self;
    Trace* previous;
    Activate(Trace* t, std::vector<Step>* steps) : self(t), previous(std::exchange(detail::active_trace, t)) {
      t->in_backward_ = true;
      t->backward_steps_ = steps;
      t->backward_reason_.clear();
    }
    ~Activate() {
      detail::active_trace = previous;
      self->in_backward_ = false;
      self->backward_steps_ = nullptr;
    }
  };
  std::vector<Tensor> result;
  {
    Activate active(this, &fresh.steps);
    fresh.seed = seeded ? seed.clone() : Tensor::ones(target.shape(), dtype);
    mark(live_, fresh.seed);
    result = run_backward(target, sources, fresh.seed);
    for (const Tensor& g : result)
      if (g.defined() && g.nbytes() > 0 && origin(g) == Origin::born_unknown)
        invalidate("a gradient was computed by a kernel without a replay hook");
  }
  born_.clear();
  fresh.replayable = backward_reason_.empty();
  fresh.grads = result;
  plans_.push_back(std::move(fresh));
  return result;
}

}  // namespace keras::jit
