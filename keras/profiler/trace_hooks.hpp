#pragma once
// The hooks through which a tracer (summary::trace_on, the TensorBoard callback's write_graph and profile_batch)
// hears what runs: each op of keras::ops as it records its gradient (autodiff::record), each gradient the
// GradientTape computes, each oneDNN primitive keras/kernels executes, each layer call (a name scope). With no
// tracer set, the normal case, a hook costs one atomic load.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace keras {
class Tensor;
namespace profiler {

/// What a tracer hears. Calls come from any thread; a tracer set once must stay alive (it may be unset).
class Tracer {
 public:
  virtual ~Tracer() = default;
  /// keras::ops has just computed `output = op(inputs)` on this thread.
  virtual void op(const char* op, const Tensor& output, const std::vector<Tensor>& inputs) = 0;
  /// A GradientTape ran the backward function of the op that produced `forward_output` (from `begin_ns` to now).
  virtual void gradient(const char* op, const Tensor& forward_output, const Tensor& grad_output,
                        const std::vector<Tensor>& grads, std::int64_t begin_ns) = 0;
  /// A oneDNN primitive of kind `kind` (implementation `impl`) ran from `begin_ns` to `end_ns`.
  virtual void kernel(const char* kind, const char* impl, std::int64_t begin_ns, std::int64_t end_ns) = 0;
  /// A name scope (a layer call) opens on this thread; the ops inside are named "<scopes>/<op>".
  virtual void scope_begin(const std::string& name) = 0;
  virtual void scope_end() = 0;
  /// Names a variable's value within the current scope (a layer's weights, as the layer is called).
  virtual void variable(const Tensor& value, const std::string& name) = 0;
};

namespace detail {
extern std::atomic<Tracer*> current_tracer;
}
/// The tracer that hears the hooks, or null.
inline Tracer* tracer() { return detail::current_tracer.load(std::memory_order_acquire); }
/// Sets (or, with null, unsets) the tracer.
void set_tracer(Tracer* tracer);
/// Nanoseconds on the steady clock: the time base of the hooks.
std::int64_t now_ns();

/// A name scope for its lifetime, heard by the tracer present when it opened.
class Scope {
 public:
  explicit Scope(const std::string& name) : tracer_(profiler::tracer()) {
    if (tracer_) tracer_->scope_begin(name);
  }
  ~Scope() {
    if (tracer_) tracer_->scope_end();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  /// The tracer that heard the scope open, or null.
  Tracer* listener() const { return tracer_; }

 private:
  Tracer* tracer_;
};

}  // namespace profiler
}  // namespace keras
