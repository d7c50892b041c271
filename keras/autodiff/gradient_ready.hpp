#pragma once
// A hook into GradientTape::gradient for code that wants each gradient as soon as it is final, while the
// backward pass goes on (a distribution strategy starts reducing early gradients during the pass).
#include <cstddef>
#include <functional>

#include "keras/tensor.hpp"

namespace keras::autodiff {

/// Called with the index of a source (in the order given to gradient()) and its final gradient.
using GradientReadyFn = std::function<void(std::size_t source, const Tensor& gradient)>;

/// While alive, the next GradientTape::gradient on this thread reports each source's gradient through
/// `on_ready` once no later backward step can add to it. A source the target does not depend on is not
/// reported. Without a scope gradient() does no extra work.
class GradientReadyScope {
 public:
  explicit GradientReadyScope(GradientReadyFn on_ready);
  ~GradientReadyScope();
  GradientReadyScope(const GradientReadyScope&) = delete;
  GradientReadyScope& operator=(const GradientReadyScope&) = delete;

 private:
  GradientReadyFn* previous_;
  GradientReadyFn on_ready_;
};

/// The hook of the innermost live scope on this thread, or null.
GradientReadyFn* gradient_ready_hook();

}  // namespace keras::autodiff
