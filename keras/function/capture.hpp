#pragma once
// The hook an op uses to take part in compiled functions (keras::function): while a function is traced,
// an op that computed `outputs` from `inputs` registers a replay, a callable that recomputes the outputs
// in place (into the same buffers) from the inputs' current values. The replay must also refresh every
// tensor the op's backward closure keeps, so that recorded backward closures stay right after a replay.
// An op without this hook makes the trace fall back to eager execution (see keras/function/trace.hpp).
#include <functional>
#include <initializer_list>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::jit {

class Trace;
namespace detail {
extern thread_local Trace* active_trace;
}

/// True while a compiled function traces on this thread (ops then call capture).
inline bool tracing() { return detail::active_trace != nullptr; }

using ReplayFn = std::function<void()>;

/// Registers one op invocation on the trace being built. Undefined tensors are ignored.
void capture(const char* op, std::initializer_list<Tensor> inputs, std::initializer_list<Tensor> outputs,
             ReplayFn replay);
/// The same for an op of a list of inputs (concatenate).
void capture(const char* op, const std::vector<Tensor>& inputs, std::initializer_list<Tensor> outputs,
             ReplayFn replay);
/// For code that knows the trace cannot reproduce it: the call then runs eagerly (with `why` in the warning).
void not_replayable(const std::string& why);
/// Marks a tensor an op made from constants alone (a scale 1/n, a ones tensor) as a trace constant.
const Tensor& constant(const Tensor& t);

namespace detail {
// Called from keras/tensor.cpp and keras/variable.cpp while tracing (never otherwise).
void born(const Tensor& t);                               // a new buffer
void value_read(const char* what);                        // a tensor's value read into C++ (item())
void assigned(const Tensor& target, const Tensor& source, const char* what);  // target.assign(source)
}  // namespace detail

}  // namespace keras::jit
