#include "keras/ops/custom_gradient.hpp"

#include <mutex>
#include <set>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"

namespace keras::ops {
namespace {

std::string op_label(const std::string& name) { return "custom_gradient op '" + name + "'"; }

// The op's name as characters that live as long as the program (a tape keeps a pointer to them).
const char* lasting_name(const std::string& name) {
  static std::mutex mutex;
  static std::set<std::string> names;  // nodes never move
  std::lock_guard lock(mutex);
  return names.insert(name).first->c_str();
}

// The gradients the user's function returned, checked against the inputs the tape needs.
void check_gradients(const std::string& name, const std::vector<Tensor>& inputs, const std::vector<Tensor>& grads,
                     const std::vector<bool>& needs) {
  if (grads.size() != inputs.size())
    throw ValueError(op_label(name) + ": the gradient function returned " + std::to_string(grads.size()) +
                     " gradient(s) for " + std::to_string(inputs.size()) +
                     " input(s); return one per input, in order (an undefined Tensor() for an input without a "
                     "gradient)");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!needs[i] || !grads[i].defined()) continue;
    if (grads[i].dtype() != DType::float32)
      throw ValueError(op_label(name) + ": the gradient for input " + std::to_string(i) + " is " + grads[i].str() +
                       "; gradients must be float32");
    if (grads[i].shape() != inputs[i].shape())
      throw ValueError(op_label(name) + ": the gradient for input " + std::to_string(i) + " has shape " +
                       shape_str(grads[i].shape()) + " but the input has shape " + shape_str(inputs[i].shape()) +
                       "; a gradient must have its input's shape (ops::reduce_to_shape sums away broadcast axes)");
  }
}

}  // namespace

Tensor custom_gradient(const std::string& name, const std::vector<Tensor>& inputs, const ForwardFn& forward,
                       GradientFn gradient, CustomGradientOptions options) {
  if (!forward || !gradient) throw ValueError(op_label(name) + ": the forward and gradient functions must be set");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].defined()) throw ValueError(op_label(name) + ": input " + std::to_string(i) + " is undefined");
  const bool recording = autodiff::recording();
  Tensor output;
  {
    autodiff::NoGradScope inner_ops_unrecorded;
    output = forward(inputs);
  }
  if (!output.defined()) throw ValueError(op_label(name) + ": the forward function returned an undefined tensor");
  if (!recording) return output;
  if (output.dtype() != DType::float32)
    throw ValueError(op_label(name) + ": the forward function returned " + output.str() +
                     "; an op with a gradient must return float32");
  // The tape keys gradients by tensor identity: an input returned as is must become a tensor of its own.
  for (const auto& in : inputs)
    if (in.id() == output.id()) output = output.clone();
  auto backward = [name, inputs, output, gradient = std::move(gradient)](const Tensor& upstream,
                                                                         const std::vector<bool>& needs) {
    std::vector<Tensor> grads = gradient(inputs, output, upstream);
    check_gradients(name, inputs, grads, needs);
    return grads;
  };
  autodiff::record(output, inputs, std::move(backward),
                   {.name = lasting_name(name), .differentiable_backward = options.differentiable_gradient});
  return output;
}

Tensor custom_gradient(const std::string& name, const Tensor& x, const std::function<Tensor(const Tensor& x)>& forward,
                       std::function<Tensor(const Tensor& x, const Tensor& y, const Tensor& upstream)> gradient,
                       CustomGradientOptions options) {
  if (!forward || !gradient) throw ValueError(op_label(name) + ": the forward and gradient functions must be set");
  return custom_gradient(
      name, std::vector<Tensor>{x}, [&forward](const std::vector<Tensor>& in) { return forward(in[0]); },
      [gradient = std::move(gradient)](const std::vector<Tensor>& in, const Tensor& y, const Tensor& upstream) {
        return std::vector<Tensor>{gradient(in[0], y, upstream)};
      },
      options);
}

}  // namespace keras::ops
