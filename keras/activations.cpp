#include "keras/activations.hpp"

#include <memory>

#include "keras/json.hpp"
#include "keras/registry.hpp"

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

/// The activation registry, with the built-in activations registered before its first use.
Registry<Activation>& registry() {
  static Registry<Activation>& r = []() -> Registry<Activation>& {
    auto& r = Registry<Activation>::instance();
    auto add = [&](const std::string& name, Fn fn, Eltwise fused = Eltwise::linear, bool fusable = false,
                   const std::vector<std::string>& aliases = {}) {
      auto activation = std::make_shared<const Activation>(Activation{name, std::move(fn), fused, fusable});
      r.add(name, [activation](const json&) { return std::make_shared<Activation>(*activation); }, aliases);
    };
    add("linear", linear, Eltwise::linear, true, {"None", ""});
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
    add("swish", swish, Eltwise::linear, false, {"silu"});
    add("exponential", exponential);
    return r;
  }();
  return r;
}
}  // namespace

Activation get(const std::string& name) { return *registry().get(name, "activation function"); }

bool register_activation(const std::string& name, std::function<Tensor(const Tensor&)> fn) {
  if (name.empty() || !fn) throw ValueError("register_activation needs a name and a callable");
  registry().add(name, [name, fn = std::move(fn)](const json&) { return std::make_shared<Activation>(Activation{name, fn}); });
  return true;
}

std::vector<std::string> names() { return registry().names(); }

}  // namespace keras::activations
