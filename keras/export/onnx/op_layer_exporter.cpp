#include "keras/export/onnx/op_layer_exporter.hpp"

#include <limits>
#include <map>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"
#include "layers/core/slicing_op_lambda.hpp"
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

// x[key] with NumPy's basic indexing: one Slice over the sliced axes, a Squeeze of the integer-indexed ones,
// an Unsqueeze for the new axes (at their places in the result).
std::string getitem(GraphBuilder& g, const Layer& layer, const std::string& x, std::int64_t rank, const std::vector<Index>& key) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max(), kMin = std::numeric_limits<std::int64_t>::min();
  std::int64_t indexed = 0;
  for (const auto& index : key) indexed += std::holds_alternative<std::int64_t>(index) || std::holds_alternative<Slice>(index);
  std::vector<std::int64_t> starts, ends, axes, steps, squeezed, inserted;
  std::int64_t axis = 0, out_axis = 0;
  auto slice = [&](std::int64_t start, std::int64_t end, std::int64_t step) {
    starts.push_back(start);
    ends.push_back(end);
    axes.push_back(axis);
    steps.push_back(step);
  };
  for (const auto& index : key) {
    if (std::holds_alternative<Ellipsis>(index)) {
      const std::int64_t skipped = rank - indexed;
      axis += skipped;
      out_axis += skipped;
    } else if (std::holds_alternative<NewAxis>(index)) {
      inserted.push_back(out_axis++);
    } else if (const auto* i = std::get_if<std::int64_t>(&index)) {
      slice(*i, *i == -1 ? kMax : *i + 1, 1);
      squeezed.push_back(axis++);
    } else {
      const Slice& sl = std::get<Slice>(index);
      const std::int64_t step = sl.step.value_or(1);
      if (step == 0) not_exportable(layer, "a slice step of 0");
      if (sl.start || sl.stop || step != 1) slice(sl.start.value_or(step > 0 ? 0 : -1), sl.stop.value_or(step > 0 ? kMax : kMin), step);
      ++axis;
      ++out_axis;
    }
  }
  if (axis > rank) not_exportable(layer, "its key indexes more axes than the input has");
  std::string y = x;
  if (!axes.empty())
    y = g.op1("Slice", {y, g.int64s("starts", starts), g.int64s("ends", ends), g.int64s("axes", axes), g.int64s("steps", steps)});
  if (!squeezed.empty()) y = g.op1("Squeeze", {y, g.int64s("axes", squeezed)});
  if (!inserted.empty()) y = g.op1("Unsqueeze", {y, g.int64s("axes", inserted)});
  return y == x ? g.op1("Identity", {x}) : y;
}

}  // namespace

std::vector<std::string> export_op_layer(GraphBuilder& g, const layers::OpLayer& layer, const LayerCall& call) {
  const auto rank = static_cast<std::int64_t>(call.shape().size());
  if (const auto* slicing = dynamic_cast<const layers::SlicingOpLambda*>(&layer))
    return one(getitem(g, layer, call.inputs[0], rank, slicing->key()));
  const auto* lambda = dynamic_cast<const layers::TFOpLambda*>(&layer);
  const std::string function = lambda ? lambda->function() : layer.class_name();
  const layers::OpFunction* f = lambda ? layers::find_tf_function(function) : layers::find_keras_op(function);
  const auto binary = binary_ops().find(function), unary = unary_ops().find(function);
  if (!f || (binary == binary_ops().end() && unary == unary_ops().end() && function != "GetItem"))
    not_exportable(layer, "the op '" + function + "' has no ONNX exporter (elementwise unary and binary ops do)");
  const std::vector<Tensor> no_inputs;  // only the raw arguments are read
  const layers::OpArguments args(f->params, layer.call_args(), layer.call_kwargs(), no_inputs, layer.name());
  if (function == "GetItem")  // Keras 3's x[key]
    return one(getitem(g, layer, operand(g, layer, call, args.value("x"), "x"), rank,
                       layers::slice_spec_from_json(args.value("key"), layer.name())));
  const std::string x = operand(g, layer, call, args.value(f->params.at(0)), f->params.at(0));
  if (unary != unary_ops().end()) return one(g.op1(unary->second, {x}));
  return one(g.op1(binary->second, {x, operand(g, layer, call, args.value(f->params.at(1)), f->params.at(1))}));
}

}  // namespace keras::onnx
