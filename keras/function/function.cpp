#include "keras/function/function.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

namespace keras {
namespace {

std::vector<std::int64_t> signature_of(const std::vector<Tensor>& inputs) {
  std::vector<std::int64_t> s;
  s.reserve(inputs.size() * 4);
  for (const Tensor& t : inputs) {
    if (!t.defined()) {
      s.push_back(-1);
      continue;
    }
    s.push_back(static_cast<std::int64_t>(t.dtype()));
    s.push_back(t.ndim());
    s.insert(s.end(), t.shape().begin(), t.shape().end());
  }
  return s;
}

std::string signature_str(const std::vector<Tensor>& inputs) {
  std::string s;
  for (const Tensor& t : inputs) s += (s.empty() ? "" : ", ") + (t.defined() ? t.str() : std::string("undefined"));
  return "(" + s + ")";
}

}  // namespace

Function::Function(Body body, FunctionOptions options) : body_(std::move(body)), options_(std::move(options)) {
  if (!body_) throw ValueError("keras::function received an empty callable");
}

Function::Entry* Function::find(const std::vector<std::int64_t>& signature) const {
  for (const auto& e : entries_)
    if (e->signature == signature) return e.get();
  return nullptr;
}

bool Function::runs_eagerly(const std::vector<Tensor>& inputs) const {
  const Entry* e = find(signature_of(inputs));
  return e && e->eager;
}

std::shared_ptr<const jit::Trace> Function::trace_for(const std::vector<Tensor>& inputs) const {
  const Entry* e = find(signature_of(inputs));
  return e && !e->eager ? e->trace : nullptr;
}

void Function::note_trace() {
  ++traces_;
  trace_calls_.push_back(calls_);
  const std::int64_t window = 2 * std::int64_t(options_.retrace_warning_threshold);
  trace_calls_.erase(std::remove_if(trace_calls_.begin(), trace_calls_.end(),
                                    [&](std::int64_t c) { return c <= calls_ - window; }),
                     trace_calls_.end());
  // As tf.function: the first trace is expected; `threshold` retraces among the recent calls are not.
  if (!warned_retracing_ && traces_ > options_.retrace_warning_threshold &&
      std::int64_t(trace_calls_.size()) >= options_.retrace_warning_threshold) {
    warned_retracing_ = true;
    std::cerr << fmt::format(
        "WARNING: {} out of the last {} calls to keras::function '{}' triggered retracing. Tracing is expensive; "
        "it happens for each new input signature (shapes and dtypes): give inputs of a fixed shape (e.g. a "
        "constant batch size, drop_remainder) or run eagerly.\n",
        trace_calls_.size(), std::min<std::int64_t>(calls_, window), options_.name);
  }
}

Function::Call Function::call(const std::vector<Tensor>& inputs) {
  if (jit::tracing()) return {nullptr, false, body_(inputs)};  // inside another trace: traced as part of it
  ++calls_;
  const auto signature = signature_of(inputs);
  Entry* entry = find(signature);
  if (entry && entry->trace && entry->trace->valid() && !entry->trace->current()) {  // a variable's trainable flag changed
    entries_.erase(std::find_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.get() == entry; }));
    entry = nullptr;
  }
  if (entry) {
    if (entry->eager) {
      entry->trace.reset();  // the records of the first run are no longer needed
      return {nullptr, false, body_(inputs)};
    }
    return {entry->trace.get(), true, entry->trace->replay(inputs)};
  }
  auto fresh = std::make_unique<Entry>();
  fresh->signature = signature;
  fresh->trace = std::make_shared<jit::Trace>(options_.watch_inputs);
  note_trace();
  std::vector<Tensor> outputs = fresh->trace->run(body_, inputs);
  if (!fresh->trace->valid()) {
    fresh->eager = true;
    if (!warned_eager_) {
      warned_eager_ = true;
      std::cerr << fmt::format("WARNING: keras::function '{}' cannot be compiled for inputs {}: {}. It runs "
                               "eagerly for them (same results, no speed-up).\n",
                               options_.name, signature_str(inputs), fresh->trace->reason());
    }
  }
  jit::Trace* trace = fresh->trace.get();
  entries_.push_back(std::move(fresh));
  return {trace, false, std::move(outputs)};
}

std::vector<Tensor> Function::operator()(const std::vector<Tensor>& inputs) {
  Call c = call(inputs);
  if (!c.trace) return c.outputs;  // eager (or inlined into an enclosing trace)
  // The trace's buffers are overwritten by the next call: the caller gets copies, linked to the buffers
  // on a recording tape (a traced run: the tape holds the ops' own records; a replay: one record per
  // output whose backward is the trace's gradient).
  std::vector<Tensor> result;
  result.reserve(c.outputs.size());
  const bool record = autodiff::recording();
  for (std::size_t k = 0; k < c.outputs.size(); ++k) {
    const Tensor& buffer = c.outputs[k];
    if (!buffer.defined()) {
      result.emplace_back();
      continue;
    }
    Tensor copy = buffer.clone();
    if (record && is_floating(buffer.dtype())) {
      if (!c.replayed) {
        autodiff::record(copy, {buffer}, [](const Tensor& g, const std::vector<bool>&) { return std::vector{g}; },
                         {.name = "keras::function output", .differentiable_backward = true});
      } else {
        std::shared_ptr<jit::Trace> trace = find(signature_of(inputs))->trace;
        std::vector<Tensor> sources = trace->input_buffers();
        std::vector<Tensor> linked = inputs;  // what the caller's tape knows: the caller's inputs, the variables
        sources.insert(sources.end(), trace->variables().begin(), trace->variables().end());
        linked.insert(linked.end(), trace->variables().begin(), trace->variables().end());
        const std::uint64_t generation = trace->generation();
        const std::string name = options_.name;
        autodiff::record(copy, linked, [trace, buffer, sources, generation, name](const Tensor& g,
                                                                                 const std::vector<bool>&) {
          if (trace->generation() != generation)
            throw ValueError("keras::function '" + name + "': a gradient was asked of a call that a later call "
                             "with the same input signature has overwritten (a compiled function keeps one set of "
                             "buffers per signature). Take the gradient before calling the function again, or use "
                             "a persistent tape around separate functions");
          std::vector<Tensor> grads = trace->gradient(buffer, sources, g);
          for (Tensor& t : grads)  // the trace's gradient buffers are reused by its next gradient
            if (t.defined()) t = t.clone();
          return grads;
        }, {.name = "keras::function", .differentiable_backward = false});
      }
    }
    result.push_back(std::move(copy));
  }
  return result;
}

Function function(Function::Body body, FunctionOptions options) { return Function(std::move(body), std::move(options)); }

}  // namespace keras
