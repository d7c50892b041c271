// ONNX exporters of the merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate and
// Dot (an Einsum over the batch, after an L2 normalization when asked).
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// ONNX's variadic Sum/Max/Min, or a chain of a binary op.
LayerExporter elementwise(const std::string& op, bool variadic) {
  return [op, variadic](GraphBuilder& g, const Layer&, const LayerCall& call) {
    if (variadic) return one(g.op1(op, call.inputs));
    std::string y = call.inputs[0];
    for (std::size_t i = 1; i < call.inputs.size(); ++i) y = g.op1(op, {y, call.inputs[i]});
    return one(y);
  };
}

std::vector<std::string> average(GraphBuilder& g, const Layer&, const LayerCall& call) {
  const std::string sum = g.op1("Sum", call.inputs);
  return one(g.op1("Div", {sum, g.scalar("count", static_cast<float>(call.inputs.size()))}));
}

std::vector<std::string> subtract(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  if (call.inputs.size() != 2) not_exportable(layer, "Subtract takes exactly 2 inputs");
  return one(g.op1("Sub", {call.inputs[0], call.inputs[1]}));
}

std::vector<std::string> concatenate(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  return one(g.op1("Concat", call.inputs, {{"axis", layer.get_config().value("axis", std::int64_t{-1})}}));
}

// x / sqrt(max(sum(x²), 1e-12)) along `axis` (tf.math.l2_normalize).
std::string l2_normalize(GraphBuilder& g, const std::string& x, std::int64_t axis) {
  const std::string sum = g.op1("ReduceSum", {g.op1("Mul", {x, x}), g.int64s("axes", {axis})}, {{"keepdims", std::int64_t{1}}});
  return g.op1("Div", {x, g.op1("Sqrt", {g.op1("Max", {sum, g.scalar("epsilon", 1e-12f)})})});
}

// Keras's batch_dot of rank-2 or rank-3 inputs: an Einsum contracting the two given axes.
std::vector<std::string> dot(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const std::size_t r0 = call.shape(0).size(), r1 = call.shape(1).size();
  if (r0 != r1 || r0 < 2 || r0 > 3) not_exportable(layer, "Dot exports for two inputs of rank 2 or 3");
  std::vector<std::int64_t> axes = config_ints(layer, c, "axes", 2);
  for (std::size_t i = 0; i < 2; ++i)
    if (axes[i] < 0) axes[i] += static_cast<std::int64_t>(i == 0 ? r0 : r1);
  std::string a = call.inputs[0], b = call.inputs[1];
  if (c.value("normalize", false)) {
    a = l2_normalize(g, a, axes[0]);
    b = l2_normalize(g, b, axes[1]);
  }
  std::string equation;
  if (r0 == 2) {
    equation = "bi,bi->b";
  } else {
    const std::string left = axes[0] == 2 ? "bik" : "bki", right = axes[1] == 1 ? "bkj" : "bjk";
    equation = left + "," + right + "->bij";
  }
  std::string y = g.op1("Einsum", {a, b}, {{"equation", equation}});
  if (r0 == 2) y = g.op1("Unsqueeze", {y, g.int64s("axes", {1})});  // Keras keeps [batch, 1]
  return one(y);
}

const bool registered = register_exporters({
    {"Add", elementwise("Sum", true)},
    {"Maximum", elementwise("Max", true)},
    {"Minimum", elementwise("Min", true)},
    {"Multiply", elementwise("Mul", false)},
    {"Average", average},
    {"Subtract", subtract},
    {"Concatenate", concatenate},
    {"Dot", dot},
});

}  // namespace
}  // namespace keras::onnx
