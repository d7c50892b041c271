#include "keras/activations.hpp"

#include <map>
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

/// The names plain functions were registered under, so that a layer given the function itself writes its name.
std::map<Tensor (*)(const Tensor&), std::string>& function_names() {
  static std::map<Tensor (*)(const Tensor&), std::string> names;
  return names;
}

/// The activation registry, with the built-in activations registered before its first use.
Registry<Activation>& registry() {
  static Registry<Activation>& r = []() -> Registry<Activation>& {
    auto& r = Registry<Activation>::instance();
    auto add = [&](const std::string& name, Fn fn, Eltwise fused = Eltwise::linear, bool fusable = false,
                   const std::vector<std::string>& aliases = {}) {
      if (auto* pointer = fn.target<Tensor (*)(const Tensor&)>()) function_names()[*pointer] = name;
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

Activation get(const std::string& name) {
  if (name == ActivationRef::kLambda)
    throw ValueError("The activation \"<lambda>\" stands for a C++ callable that was not registered, so no config "
                     "can rebuild it. Register the function once (activations::register_activation(\"my_act\", fn)) "
                     "and give the layer .activation = \"my_act\" (or the registered function itself)");
  return *registry().get(name, "activation function");
}

bool register_activation(const std::string& name, std::function<Tensor(const Tensor&)> fn) {
  if (name.empty() || !fn) throw ValueError("register_activation needs a name and a callable");
  if (name == ActivationRef::kLambda)
    throw ValueError("register_activation: \"<lambda>\" is the name of unregistered callables; choose another name");
  if (auto* pointer = fn.target<Tensor (*)(const Tensor&)>()) function_names()[*pointer] = name;
  registry().add(name, [name, fn = std::move(fn)](const json&) { return std::make_shared<Activation>(Activation{name, fn}); });
  return true;
}

std::string ActivationRef::registered_name(Tensor (*fn)(const Tensor&)) {
  registry();  // the built-ins first
  auto it = function_names().find(fn);
  return it == function_names().end() ? kLambda : it->second;
}

std::vector<std::string> names() { return registry().names(); }

Activation resolve(const ActivationRef& ref) {
  if (ref.activation_) {
    if (!ref.activation_->fn) throw ValueError("activation: the callable given as an activation is empty");
    return *ref.activation_;
  }
  return get(ref.name_);
}

json encode(const ActivationRef& ref) { return ref.name(); }

void decode(const json& j, ActivationRef& ref) {
  if (j.is_null()) return;
  if (!j.is_string())
    throw ValueError("activation: expected an activation name in the config, got " + j.dump());
  ref = j.get<std::string>();
}


namespace {
/// Walks a config: `owner` is the innermost {"class_name", "config"} object seen, to name the layer.
void check_savable(const json& j, const json* owner) {
  if (j.is_array()) {
    for (const auto& item : j) check_savable(item, owner);
    return;
  }
  if (!j.is_object()) return;
  if (j.contains("class_name") && j.contains("config") && j["config"].is_object()) owner = &j;
  for (const char* key : {"activation", "recurrent_activation"}) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string() || *it != ActivationRef::kLambda) continue;
    const std::string cls = owner ? owner->value("class_name", std::string("?")) : std::string("?");
    const std::string name = owner ? (*owner)["config"].value("name", std::string("?")) : std::string("?");
    throw ValueError(cls + " layer '" + name + "': its `" + key + "` is a C++ callable without a registered name, so "
                     "the model cannot be saved (a file could not rebuild it). Register the function once with "
                     "keras::activations::register_activation(\"my_act\", fn) and build the layer with ." + key +
                     " = \"my_act\" (or the registered function itself).");
  }
  for (const auto& [key, value] : j.items()) check_savable(value, owner);
}
}  // namespace

void check_savable(const json& model_config) { check_savable(model_config, nullptr); }

}  // namespace keras::activations
