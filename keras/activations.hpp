#pragma once
// Activation functions by Keras name ("relu", "softmax", ...), built from keras::ops.
#include <functional>
#include <string>
#include <vector>

#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras::activations {

Tensor linear(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor relu6(const Tensor& x);
Tensor leaky_relu(const Tensor& x, float negative_slope = 0.2f);
Tensor elu(const Tensor& x, float alpha = 1.f);
Tensor selu(const Tensor& x);
Tensor gelu(const Tensor& x, bool approximate = false);
Tensor sigmoid(const Tensor& x);
Tensor hard_sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softmax(const Tensor& x, int axis = -1);
Tensor softplus(const Tensor& x);
Tensor softsign(const Tensor& x);
Tensor swish(const Tensor& x);
Tensor exponential(const Tensor& x);

/// A named activation; `fusable` is set when a matrix product can apply it as a oneDNN post-op.
struct Activation {
  std::string name = "linear";
  std::function<Tensor(const Tensor&)> fn;
  kernels::Eltwise fused = kernels::Eltwise::linear;
  bool fusable = false;
  Tensor operator()(const Tensor& x) const { return fn(x); }
};

/// The activation called `name` ("silu" is "swish"; "" and "None" are "linear"), built-in, registered or
/// given as custom_objects; unknown names list the valid ones.
Activation get(const std::string& name);
/// Makes `fn` known as the activation `name` (call once, e.g. at static initialization): layers take it as
/// `.activation = "name"` and their configs write and read it by that name.
bool register_activation(const std::string& name, std::function<Tensor(const Tensor&)> fn);
std::vector<std::string> names();

}  // namespace keras::activations
