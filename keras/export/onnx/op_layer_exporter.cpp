#include "keras/export/onnx/op_layer_exporter.hpp"

#include <limits>
#include <map>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"
#include "layers/core/operation.hpp"
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

// The comparisons: ONNX op, and whether its result is negated.
const std::map<std::string, std::pair<std::string, bool>>& comparison_ops() {
  static const std::map<std::string, std::pair<std::string, bool>> ops = {
      {"math.equal", {"Equal", false}},         {"__operators__.eq", {"Equal", false}}, {"Equal", {"Equal", false}},
      {"math.not_equal", {"Equal", true}},      {"__operators__.ne", {"Equal", true}},  {"NotEqual", {"Equal", true}},
      {"math.greater", {"Greater", false}},     {"Greater", {"Greater", false}},        {"math.less", {"Less", false}},
      {"Less", {"Less", false}},                {"math.greater_equal", {"GreaterOrEqual", false}},
      {"GreaterEqual", {"GreaterOrEqual", false}}, {"math.less_equal", {"LessOrEqual", false}},
      {"LessEqual", {"LessOrEqual", false}},
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

// The ops that move or reduce axes, by TFOpLambda function and Keras 3 class name: which of the op's parameters
// holds the tensor, and what ONNX nodes compute it. `rank` is the input's (batch included).
using Structural = std::string (*)(GraphBuilder& g, const Layer& layer, const std::string& x,
                                   const layers::OpArguments& args, std::int64_t rank, const LayerCall& call);

std::vector<std::int64_t> ints_of(const layers::OpArguments& args, const std::string& name) {
  const auto v = args.integers(name);
  return {v.begin(), v.end()};
}

std::string reduction(GraphBuilder& g, const std::string& op, const std::string& x, const layers::OpArguments& args,
                      std::int64_t rank) {
  std::vector<std::int64_t> axes = ints_of(args, args.has("axis") ? "axis" : "reduction_indices");
  if (axes.empty())
    for (std::int64_t a = 0; a < rank; ++a) axes.push_back(a);
  return reduce(g, op, x, axes, args.flag(args.has("keep_dims") ? "keep_dims" : "keepdims", false));
}

const std::map<std::string, std::pair<std::string, Structural>>& structural_ops() {
  static const std::map<std::string, std::pair<std::string, Structural>> ops = [] {
    std::map<std::string, std::pair<std::string, Structural>> t;
    const Structural mean = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                               std::int64_t rank, const LayerCall&) { return reduction(g, "Mean", x, a, rank); };
    const Structural sum = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                              std::int64_t rank, const LayerCall&) { return reduction(g, "Sum", x, a, rank); };
    const Structural max = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                              std::int64_t rank, const LayerCall&) { return reduction(g, "Max", x, a, rank); };
    t["math.reduce_mean"] = {"input_tensor", mean};
    t["math.reduce_sum"] = {"input_tensor", sum};
    t["math.reduce_max"] = {"input_tensor", max};
    t["Mean"] = {"x", mean};
    t["Sum"] = {"x", sum};
    t["Max"] = {"x", max};
    const Structural reshape = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                                  std::int64_t, const LayerCall&) {
      return g.op1("Reshape", {x, g.int64s("shape", ints_of(a, a.has("newshape") ? "newshape" : "shape"))});
    };
    t["reshape"] = {"tensor", reshape};
    t["Reshape"] = {"x", reshape};
    const Structural transpose = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                                    std::int64_t rank, const LayerCall&) {
      std::vector<std::int64_t> perm = ints_of(a, a.has("axes") ? "axes" : "perm");
      if (perm.empty())
        for (std::int64_t i = rank - 1; i >= 0; --i) perm.push_back(i);
      return g.op1("Transpose", {x}, {{"perm", perm}});
    };
    t["transpose"] = {"a", transpose};
    t["Transpose"] = {"x", transpose};
    const Structural expand = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                                 std::int64_t, const LayerCall&) {
      return g.op1("Unsqueeze", {x, g.int64s("axes", {a.integer("axis", 0)})});
    };
    t["expand_dims"] = {"input", expand};
    t["ExpandDims"] = {"x", expand};
    const Structural squeeze = [](GraphBuilder& g, const Layer& layer, const std::string& x, const layers::OpArguments& a,
                                  std::int64_t, const LayerCall&) {
      const auto axes = ints_of(a, "axis");
      if (axes.empty()) not_exportable(layer, "a squeeze of every size-1 axis (give the axes)");
      return g.op1("Squeeze", {x, g.int64s("axes", axes)});
    };
    t["squeeze"] = {"input", squeeze};
    t["Squeeze"] = {"x", squeeze};
    const Structural min = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                              std::int64_t rank, const LayerCall&) { return reduction(g, "Min", x, a, rank); };
    t["math.reduce_min"] = {"input_tensor", min};
    t["Min"] = {"x", min};
    // Softmax and log-softmax over one axis (ONNX opset 13+ normalizes over that axis alone, as Keras).
    const Structural softmax = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                                  std::int64_t, const LayerCall&) {
      return g.op1("Softmax", {x}, {{"axis", std::int64_t{a.integer("axis", -1)}}});
    };
    const Structural log_softmax = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments& a,
                                      std::int64_t, const LayerCall&) {
      return g.op1("LogSoftmax", {x}, {{"axis", std::int64_t{a.integer("axis", -1)}}});
    };
    t["nn.softmax"] = t["math.softmax"] = {"logits", softmax};
    t["Softmax"] = {"x", softmax};
    t["nn.log_softmax"] = t["math.log_softmax"] = {"logits", log_softmax};
    t["LogSoftmax"] = {"x", log_softmax};
    const Structural square = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments&,
                                 std::int64_t, const LayerCall&) { return g.op1("Mul", {x, x}); };
    t["math.square"] = {"x", square};
    t["Square"] = {"x", square};
    t["math.rsqrt"] = {"x", [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments&,
                               std::int64_t, const LayerCall&) { return g.op1("Reciprocal", {g.op1("Sqrt", {x})}); }};
    const Structural relu6 = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments&,
                                std::int64_t, const LayerCall&) {
      return g.op1("Clip", {x, g.scalar("zero", 0.f), g.scalar("six", 6.f)});
    };
    t["nn.relu6"] = {"features", relu6};
    t["Relu6"] = {"x", relu6};
    const Structural softplus = [](GraphBuilder& g, const Layer&, const std::string& x, const layers::OpArguments&,
                                   std::int64_t, const LayerCall&) { return g.op1("Softplus", {x}); };
    t["nn.softplus"] = t["math.softplus"] = {"features", softplus};
    t["Softplus"] = {"x", softplus};
    // x * sigmoid(beta * x) (tf.nn.silu's beta; Keras 3's silu has none).
    const Structural silu = [](GraphBuilder& g, const Layer& layer, const std::string& x, const layers::OpArguments& a,
                               std::int64_t, const LayerCall&) {
      const json& beta = a.value("beta");
      if (!beta.is_null() && !beta.is_number()) not_exportable(layer, "its beta is not a number");
      const std::string bx = beta.is_number() ? g.op1("Mul", {x, g.scalar("beta", beta.get<float>())}) : x;
      return g.op1("Mul", {x, g.op1("Sigmoid", {bx})});
    };
    t["nn.silu"] = t["nn.swish"] = {"features", silu};
    t["Silu"] = {"x", silu};
    const Structural leaky = [](GraphBuilder& g, const Layer& layer, const std::string& x, const layers::OpArguments& a,
                                std::int64_t, const LayerCall&) {
      const json& alpha = a.value(a.has("alpha") ? "alpha" : "negative_slope");
      if (!alpha.is_null() && !alpha.is_number()) not_exportable(layer, "its slope is not a number");
      return g.op1("LeakyRelu", {x}, {{"alpha", alpha.is_number() ? alpha.get<float>() : 0.2f}});
    };
    t["nn.leaky_relu"] = {"features", leaky};
    t["LeakyRelu"] = {"x", leaky};
    return t;
  }();
  return ops;
}

// The ONNX values of a list argument of tensors (tf.concat's values, keras.ops.concatenate's xs).
std::vector<std::string> operands(GraphBuilder& g, const Layer& layer, const LayerCall& call, const json& list,
                                  const std::string& name) {
  std::vector<std::string> out;
  for (const auto& v : list.is_array() ? list : json::array({list})) out.push_back(operand(g, layer, call, v, name));
  return out;
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
  const auto compare = comparison_ops().find(function);
  const bool known = binary != binary_ops().end() || unary != unary_ops().end() || structural_ops().count(function) ||
                     compare != comparison_ops().end() || function == "GetItem" || function == "concat" ||
                     function == "Concatenate" || function == "stack" || function == "Stack" ||
                     function == "linalg.matmul" || function == "Matmul" || function == "cast" || function == "Cast";
  if (!f || !known)
    not_exportable(layer, "the op '" + function + "' has no ONNX exporter (elementwise ops and comparisons, reductions, "
                          "softmax, reshapes, transposes, concatenations, stack, matmul, cast and x[key] do)");
  json kwargs = layer.call_kwargs();
  if (const auto* op = dynamic_cast<const layers::Operation*>(&layer)) {  // Keras 3: the op's init arguments too
    kwargs = op->get_config();
    kwargs.erase("name");
    for (auto it = layer.call_kwargs().begin(); it != layer.call_kwargs().end(); ++it) kwargs[it.key()] = it.value();
  }
  const std::vector<Tensor> no_inputs;  // only the raw arguments are read
  const layers::OpArguments args(f->params, layer.call_args(), kwargs, no_inputs, layer.name());
  if (function == "concat" || function == "Concatenate") {
    const std::string list = function == "concat" ? "values" : "xs";
    return one(g.op1("Concat", operands(g, layer, call, args.value(list), list), {{"axis", std::int64_t{args.integer("axis", 0)}}}));
  }
  if (function == "stack" || function == "Stack") {  // each operand gets the new axis, then they are joined along it
    const std::string list = function == "stack" ? "values" : "x";
    const std::int64_t axis = args.integer("axis", 0);
    std::vector<std::string> parts;
    for (const auto& v : operands(g, layer, call, args.value(list), list))
      parts.push_back(g.op1("Unsqueeze", {v, g.int64s("axes", {axis})}));
    return one(g.op1("Concat", parts, {{"axis", axis}}));
  }
  if (function == "linalg.matmul" || function == "Matmul") {
    const bool tf = function == "linalg.matmul";
    if (tf && (args.flag("adjoint_a", false) || args.flag("adjoint_b", false)))
      not_exportable(layer, "adjoint_a/adjoint_b are not exported");
    std::vector<std::string> ab;
    for (const auto& [name, transposed] : {std::pair{tf ? "a" : "x1", tf && args.flag("transpose_a", false)},
                                           std::pair{tf ? "b" : "x2", tf && args.flag("transpose_b", false)}}) {
      const json& v = args.value(name);
      std::string x = operand(g, layer, call, v, name);
      if (transposed) {
        if (!layers::is_input_placeholder(v)) not_exportable(layer, "a transposed constant matmul operand");
        const auto r = static_cast<std::int64_t>(call.shape(v.at("__input__").get<std::size_t>()).size());
        std::vector<std::int64_t> perm;
        for (std::int64_t i = 0; i < r; ++i) perm.push_back(i);
        std::swap(perm[static_cast<std::size_t>(r - 1)], perm[static_cast<std::size_t>(r - 2)]);
        x = g.op1("Transpose", {x}, {{"perm", perm}});
      }
      ab.push_back(x);
    }
    return one(g.op1("MatMul", ab));
  }
  if (function == "cast" || function == "Cast") {
    const json& dtype = args.value("dtype");
    static const std::map<std::string, std::pair<std::int64_t, DType>> kTypes = {
        {"float32", {1, DType::float32}}, {"int32", {6, DType::int32}}, {"int64", {7, DType::int64}}};
    const auto type = dtype.is_string() ? kTypes.find(dtype.get<std::string>()) : kTypes.end();
    if (type == kTypes.end()) not_exportable(layer, "a cast to " + dtype.dump() + " (float32, int32 and int64 export)");
    const std::string y = g.op1("Cast", {operand(g, layer, call, args.value("x"), "x")}, {{"to", type->second.first}});
    if (type->second.second != DType::float32) g.set_dtype(y, type->second.second);
    return one(y);
  }
  if (compare != comparison_ops().end()) {  // kerascpp's comparisons give float 0/1
    const auto& [op, negated] = compare->second;
    const std::string x = operand(g, layer, call, args.value(f->params.at(0)), f->params.at(0));
    std::string y = g.op1(op, {x, operand(g, layer, call, args.value(f->params.at(1)), f->params.at(1))});
    if (negated) y = g.op1("Not", {y});
    return one(g.op1("Cast", {y}, {{"to", std::int64_t{1}}}));
  }
  if (auto s = structural_ops().find(function); s != structural_ops().end())
    return one(s->second.second(g, layer, operand(g, layer, call, args.value(s->second.first), s->second.first), args, rank, call));
  if (function == "GetItem")  // Keras 3's x[key]
    return one(getitem(g, layer, operand(g, layer, call, args.value("x"), "x"), rank,
                       layers::slice_spec_from_json(args.value("key"), layer.name())));
  const std::string x = operand(g, layer, call, args.value(f->params.at(0)), f->params.at(0));
  if (unary != unary_ops().end()) return one(g.op1(unary->second, {x}));
  return one(g.op1(binary->second, {x, operand(g, layer, call, args.value(f->params.at(1)), f->params.at(1))}));
}

}  // namespace keras::onnx
