#include "keras/activations.hpp"

#include <map>

#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::activations {

using kernels::Eltwise;

Tensor linear(const Tensor& x) { return x; }
Tensor relu(const Tensor& x) { return ops::relu(x); }
Tensor relu6(const Tensor& x) { return ops::clip(x, 0.f, 6.f); }
Tensor leaky_relu(const Tensor& x, float negative_slope) { return ops::relu(x, negative_slope); }
Tensor elu(const Tensor& x, float alpha) { return ops::eltwise(x, Eltwise::elu, alpha); }
Tensor selu(const Tensor& x) {
  constexpr float alpha = 1.6732632423543772f, scale = 1.0507009873554805f;
  return ops::eltwise(elu(x, alpha), Eltwise::linear, scale, 0.f);
}
Tensor gelu(const Tensor& x, bool approximate) {
  return ops::eltwise(x, approximate ? Eltwise::gelu_tanh : Eltwise::gelu_erf);
}
Tensor sigmoid(const Tensor& x) { return ops::sigmoid(x); }
Tensor hard_sigmoid(const Tensor& x) {  // tf.keras 2.x: clip(0.2 x + 0.5, 0, 1)
  return ops::clip(ops::eltwise(x, Eltwise::linear, 0.2f, 0.5f), 0.f, 1.f);
}
Tensor tanh(const Tensor& x) { return ops::tanh(x); }
Tensor softmax(const Tensor& x, int axis) {
  if (x.ndim() < 2)
    throw ValueError("softmax expects an input of rank >= 2 (batch, ..., classes), got shape " + shape_str(x.shape()));
  return ops::softmax(x, axis);
}
Tensor softplus(const Tensor& x) { return ops::softplus(x); }
Tensor softsign(const Tensor& x) { return ops::divide(x, ops::add(ops::abs(x), Tensor::scalar(1.f))); }
Tensor swish(const Tensor& x) { return ops::eltwise(x, Eltwise::swish, 1.f); }
Tensor exponential(const Tensor& x) { return ops::exp(x); }

namespace {
using Fn = std::function<Tensor(const Tensor&)>;
const std::map<std::string, Activation>& table() {
  static const std::map<std::string, Activation> t = [] {
    std::map<std::string, Activation> m;
    auto add = [&](const std::string& name, Fn fn, Eltwise fused = Eltwise::linear, bool fusable = false) {
      m[name] = Activation{name, std::move(fn), fused, fusable};
    };
    add("linear", linear, Eltwise::linear, true);
    add("relu", relu, Eltwise::relu, true);
    add("sigmoid", sigmoid, Eltwise::logistic, true);
    add("tanh", tanh, Eltwise::tanh, true);
    add("relu6", relu6);
    add("leaky_relu", [](const Tensor& x) { return leaky_relu(x); });
    add("elu", [](const Tensor& x) { return elu(x); });
    add("selu", selu);
    add("gelu", [](const Tensor& x) { return gelu(x); });
    add("hard_sigmoid", hard_sigmoid);
    add("softmax", [](const Tensor& x) { return softmax(x); });
    add("softplus", softplus);
    add("softsign", softsign);
    add("swish", swish);
    add("exponential", exponential);
    m["silu"] = m["swish"];
    return m;
  }();
  return t;
}
}  // namespace

Activation get(const std::string& name) {
  const std::string key = name.empty() || name == "None" ? "linear" : name;
  auto it = table().find(key);
  if (it == table().end()) {
    std::string valid;
    for (const auto& n : names()) valid += (valid.empty() ? "" : ", ") + n;
    throw ValueError("Unknown activation function: '" + name + "'. Valid activations are: " + valid);
  }
  return it->second;
}

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const auto& [n, a] : table()) out.push_back(n);
  return out;
}

}  // namespace keras::activations
