// ONNX exporters of the activation layers: ReLU, LeakyReLU, PReLU, ELU, ThresholdedReLU, Softmax.
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

// Keras's relu(x, negative_slope, max_value, threshold): x for threshold <= x (capped at max_value),
// negative_slope * (x - threshold) below.
std::vector<std::string> relu(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const float slope = c.value("negative_slope", 0.f), threshold = c.value("threshold", 0.f);
  const std::string& x = call.inputs[0];
  std::string y;
  if (threshold == 0.f) {
    y = slope == 0.f ? g.op1("Relu", {x}) : g.op1("LeakyRelu", {x}, {{"alpha", slope}});
  } else {
    const std::string t = g.scalar("threshold", threshold);
    const std::string below = g.op1("Mul", {g.op1("Sub", {x, t}), g.scalar("negative_slope", slope)});
    y = g.op1("Where", {g.op1("GreaterOrEqual", {x, t}), x, below});
  }
  if (c.contains("max_value") && !c["max_value"].is_null())
    y = g.op1("Min", {y, g.scalar("max_value", c["max_value"].get<float>())});
  return one(y);
}

std::vector<std::string> leaky_relu(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const float alpha = c.contains("negative_slope") ? c["negative_slope"].get<float>() : c.value("alpha", 0.3f);
  return one(g.op1("LeakyRelu", {call.inputs[0]}, {{"alpha", alpha}}));
}

std::vector<std::string> prelu(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  // alpha has the input's shape without the batch dimension (1 along shared axes): it broadcasts as is.
  return one(g.op1("PRelu", {call.inputs[0], g.initializer("alpha", weight(layer, "alpha"))}));
}

std::vector<std::string> elu(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  return one(g.op1("Elu", {call.inputs[0]}, {{"alpha", layer.get_config().value("alpha", 1.f)}}));
}

// x where x > theta, 0 elsewhere.
std::vector<std::string> thresholded_relu(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const float theta = layer.get_config().value("theta", 1.f);
  const std::string& x = call.inputs[0];
  const std::string keep = g.op1("Cast", {g.op1("Greater", {x, g.scalar("theta", theta)})}, {{"to", std::int64_t{1}}});
  return one(g.op1("Mul", {x, keep}));
}

std::vector<std::string> softmax(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json axis = layer.get_config().value("axis", json(-1));
  if (!axis.is_number()) not_exportable(layer, "a softmax over several axes has no single ONNX Softmax");
  return one(g.op1("Softmax", {call.inputs[0]}, {{"axis", axis.get<std::int64_t>()}}));
}

const bool registered = register_exporters({
    {"ReLU", relu},
    {"LeakyReLU", leaky_relu},
    {"PReLU", prelu},
    {"ELU", elu},
    {"ThresholdedReLU", thresholded_relu},
    {"Softmax", softmax},
});

}  // namespace
}  // namespace keras::onnx
