#include "keras/export/onnx/op_layer_exporter.hpp"

#include <map>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"
#include "layers/core/tf_op_lambda.hpp"

namespace keras::onnx {
namespace {

// The ONNX op of each elementwise function, by TFOpLambda function name and Keras 3 op class name.
const std::map<std::string, std::string>& binary_ops() {
  static const std::map<std::string, std::string> ops = {
      {"__operators__.add", "Add"}, {"math.add", "Add"},          {"math.subtract", "Sub"}, {"math.multiply", "Mul"},
      {"math.truediv", "Div"},      {"math.divide", "Div"},       {"math.maximum", "Max"},  {"math.minimum", "Min"},
      {"math.pow", "Pow"},          {"Add", "Add"},               {"Subtract", "Sub"},      {"Multiply", "Mul"},
      {"Divide", "Div"},            {"TrueDivide", "Div"},        {"Maximum", "Max"},       {"Minimum", "Min"},
  };
  return ops;
}

const std::map<std::string, std::string>& unary_ops() {
  static const std::map<std::string, std::string> ops = {
      {"nn.relu", "Relu"},     {"math.sigmoid", "Sigmoid"}, {"nn.sigmoid", "Sigmoid"}, {"math.tanh", "Tanh"},
      {"nn.tanh", "Tanh"},     {"math.exp", "Exp"},         {"math.log", "Log"},       {"math.sqrt", "Sqrt"},
      {"math.abs", "Abs"},     {"math.negative", "Neg"},    {"math.reciprocal", "Reciprocal"},
      {"identity", "Identity"}, {"Negative", "Neg"},        {"Exp", "Exp"},            {"Log", "Log"},
      {"Sqrt", "Sqrt"},        {"Absolute", "Abs"},         {"Tanh", "Tanh"},          {"Sigmoid", "Sigmoid"},
      {"Relu", "Relu"},        {"Reciprocal", "Reciprocal"},
  };
  return ops;
}

// An argument as an ONNX value: one of the call's inputs, or a constant number or flat list of numbers.
std::string operand(GraphBuilder& g, const Layer& layer, const LayerCall& call, const json& v, const std::string& name) {
  if (layers::is_input_placeholder(v)) return call.inputs.at(v.at("__input__").get<std::size_t>());
  if (v.is_object() && v.contains("__constant__")) return operand(g, layer, call, v.at("__constant__"), name);
  if (v.is_number()) return g.scalar(name, v.get<float>());
  if (v.is_array() && !v.empty() && v[0].is_number()) {
    std::vector<float> values;
    for (const auto& x : v) values.push_back(x.get<float>());
    return g.floats(name, values, {static_cast<std::int64_t>(values.size())});
  }
  not_exportable(layer, "its argument '" + name + "' (" + v.dump() + ") is neither an input nor a number");
}

}  // namespace

std::vector<std::string> export_op_layer(GraphBuilder& g, const layers::OpLayer& layer, const LayerCall& call) {
  const auto* lambda = dynamic_cast<const layers::TFOpLambda*>(&layer);
  const std::string function = lambda ? lambda->function() : layer.class_name();
  const layers::OpFunction* f = lambda ? layers::find_tf_function(function) : layers::find_keras_op(function);
  const auto binary = binary_ops().find(function), unary = unary_ops().find(function);
  if (!f || (binary == binary_ops().end() && unary == unary_ops().end()))
    not_exportable(layer, "the op '" + function + "' has no ONNX exporter (elementwise unary and binary ops do)");
  const std::vector<Tensor> no_inputs;  // only the raw arguments are read
  const layers::OpArguments args(f->params, layer.call_args(), layer.call_kwargs(), no_inputs, layer.name());
  const std::string x = operand(g, layer, call, args.value(f->params.at(0)), f->params.at(0));
  if (unary != unary_ops().end()) return one(g.op1(unary->second, {x}));
  return one(g.op1(binary->second, {x, operand(g, layer, call, args.value(f->params.at(1)), f->params.at(1))}));
}

}  // namespace keras::onnx
