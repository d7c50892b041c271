#include "keras/export/onnx/export_helpers.hpp"

#include <cmath>

#include "keras/errors.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"
#include "keras/ops/manipulation.hpp"

namespace keras::onnx {
namespace {

const Variable* find_weight(const Layer& layer, const std::string& name) {
  for (const auto& w : layer.weights()) {
    const std::string& n = w->name();
    if (n == name || (n.size() > name.size() && n.ends_with(name) && n[n.size() - name.size() - 1] == '/'))
      return w.get();
  }
  return nullptr;
}

}  // namespace

Tensor weight(const Layer& layer, const std::string& name) {
  const Variable* w = find_weight(layer, name);
  if (!w) not_exportable(layer, "it has no weight '" + name + "' (is it built?)");
  return w->value().astype(DType::float32);
}

bool has_weight(const Layer& layer, const std::string& name) { return find_weight(layer, name) != nullptr; }

Tensor transposed(const Tensor& x, const std::vector<int>& perm) { return ops::transpose(x, perm).clone(); }

std::vector<std::int64_t> config_ints(const Layer& layer, const json& config, const std::string& key, std::size_t n) {
  if (!config.contains(key)) not_exportable(layer, "its config has no '" + key + "'");
  const json& v = config.at(key);
  if (v.is_number()) return std::vector<std::int64_t>(n, v.get<std::int64_t>());
  std::vector<std::int64_t> out;
  for (const auto& x : v) out.push_back(x.get<std::int64_t>());
  if (out.size() != n)
    not_exportable(layer, "its '" + key + "' has " + std::to_string(out.size()) + " values, expected " + std::to_string(n));
  return out;
}

std::string activation(GraphBuilder& g, const Layer& layer, const std::string& name, const std::string& x) {
  if (name == "linear" || name.empty() || name == "None") return x;
  if (name == "relu") return g.op1("Relu", {x});
  if (name == "sigmoid") return g.op1("Sigmoid", {x});
  if (name == "tanh") return g.op1("Tanh", {x});
  if (name == "softmax") return g.op1("Softmax", {x}, {{"axis", std::int64_t{-1}}});
  if (name == "log_softmax") return g.op1("LogSoftmax", {x}, {{"axis", std::int64_t{-1}}});
  if (name == "softplus") return g.op1("Softplus", {x});
  if (name == "softsign") return g.op1("Softsign", {x});
  if (name == "elu") return g.op1("Elu", {x}, {{"alpha", 1.f}});
  if (name == "selu")
    return g.op1("Selu", {x}, {{"alpha", 1.6732632423543772f}, {"gamma", 1.0507009873554805f}});
  if (name == "exponential") return g.op1("Exp", {x});
  if (name == "relu6") return g.op1("Clip", {x, g.scalar("zero", 0.f), g.scalar("six", 6.f)});
  if (name == "leaky_relu") return g.op1("LeakyRelu", {x}, {{"alpha", 0.2f}});
  if (name == "hard_sigmoid") return g.op1("HardSigmoid", {x}, {{"alpha", 0.2f}, {"beta", 0.5f}});
  if (name == "swish" || name == "silu") return g.op1("Mul", {x, g.op1("Sigmoid", {x})});
  if (name == "gelu") {  // x/2 (1 + erf(x/sqrt 2)), Keras's default (approximate=False)
    const std::string e = g.op1("Erf", {g.op1("Mul", {x, g.scalar("inv_sqrt2", float(1 / std::sqrt(2.0)))})});
    return g.op1("Mul", {g.op1("Mul", {x, g.scalar("half", 0.5f)}), g.op1("Add", {e, g.scalar("one", 1.f)})});
  }
  not_exportable(layer, "its activation '" + name + "' has no ONNX form (a custom activation: export it with a "
                        "registered exporter for the layer)");
}

std::string config_activation(GraphBuilder& g, const Layer& layer, const json& config, const std::string& x) {
  const json& a = config.contains("activation") ? config.at("activation") : json("linear");
  if (a.is_null()) return x;
  if (!a.is_string()) not_exportable(layer, "its activation is not one of Keras's named activations");
  return activation(g, layer, a.get<std::string>(), x);
}

std::string to_channels_first(GraphBuilder& g, const std::string& x, std::size_t rank) {
  std::vector<std::int64_t> perm{0, static_cast<std::int64_t>(rank) - 1};
  for (std::size_t i = 1; i + 1 < rank; ++i) perm.push_back(static_cast<std::int64_t>(i));
  return g.op1("Transpose", {x}, {{"perm", perm}});
}

std::string to_channels_last(GraphBuilder& g, const std::string& x, std::size_t rank) {
  std::vector<std::int64_t> perm{0};
  for (std::size_t i = 2; i < rank; ++i) perm.push_back(static_cast<std::int64_t>(i));
  perm.push_back(1);
  return g.op1("Transpose", {x}, {{"perm", perm}});
}

bool channels_last(const json& config) { return config.value("data_format", std::string("channels_last")) != "channels_first"; }

std::string reduce(GraphBuilder& g, const std::string& op, const std::string& x, const std::vector<std::int64_t>& axes,
                   bool keepdims) {
  const Attribute keep{"keepdims", std::int64_t{keepdims ? 1 : 0}};
  if (op == "Sum") return g.op1("ReduceSum", {x, g.int64s("axes", axes)}, {keep});
  return g.op1("Reduce" + op, {x}, {{"axes", axes}, keep});
}

bool register_exporters(const std::vector<std::pair<std::string, LayerExporter>>& exporters) {
  for (const auto& [name, fn] : exporters) register_layer_exporter(name, fn);
  return true;
}

}  // namespace keras::onnx
