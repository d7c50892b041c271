// ONNX exporters of the core layers (Dense, EinsumDense, Activation, Embedding, Masking, Flatten, Reshape) and of the
// layers that are identities in inference (Dropout and its kin, the noise layers, ActivityRegularization).
#include <limits>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

std::vector<std::string> dense(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  std::string y = g.op1("MatMul", {call.inputs[0], g.initializer("kernel", weight(layer, "kernel"))});
  if (c.value("use_bias", true)) y = g.op1("Add", {y, g.initializer("bias", weight(layer, "bias"))});
  return one(config_activation(g, layer, c, y));
}

// einsum(equation, x, kernel) + bias (whose shape broadcasts against the output's trailing axes, as Keras makes it).
std::vector<std::string> einsum_dense(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  std::string y = g.op1("Einsum", {call.inputs[0], g.initializer("kernel", weight(layer, "kernel"))},
                        {{"equation", c.at("equation").get<std::string>()}});
  if (has_weight(layer, "bias")) y = g.op1("Add", {y, g.initializer("bias", weight(layer, "bias"))});
  return one(config_activation(g, layer, c, y));
}

std::vector<std::string> activation_layer(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  return one(config_activation(g, layer, layer.get_config(), call.inputs[0]));
}

std::vector<std::string> identity(GraphBuilder& g, const Layer&, const LayerCall& call) {
  return one(g.op1("Identity", {call.inputs[0]}));
}

std::vector<std::string> embedding(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const std::string indices = g.op1("Cast", {call.inputs[0]}, {{"to", std::int64_t{7}}});  // INT64
  return one(g.op1("Gather", {g.initializer("embeddings", weight(layer, "embeddings")), indices}, {{"axis", std::int64_t{0}}}));
}

// Keras's Masking: x where any feature of the step differs from mask_value, zeros elsewhere.
std::vector<std::string> masking(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const float mask_value = layer.get_config().value("mask_value", 0.f);
  const std::string& x = call.inputs[0];
  const std::string differs = g.op1("Not", {g.op1("Equal", {x, g.scalar("mask_value", mask_value)})});
  const std::string keep = g.op1("ReduceMax", {g.op1("Cast", {differs}, {{"to", std::int64_t{1}}})},
                                 {{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{1}}});
  return one(g.op1("Mul", {x, keep}));
}

std::vector<std::string> flatten(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  std::string x = call.inputs[0];
  const std::size_t rank = call.shape().size();
  if (!channels_last(layer.get_config()) && rank > 2) x = to_channels_last(g, x, rank);  // as Keras does
  return one(g.op1("Flatten", {x}, {{"axis", std::int64_t{1}}}));
}

std::vector<std::string> reshape(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  std::vector<std::int64_t> shape{0};  // 0: the batch dimension as it comes
  const json c = layer.get_config();
  for (const auto& d : c.at("target_shape")) shape.push_back(d.get<std::int64_t>());
  return one(g.op1("Reshape", {call.inputs[0], g.int64s("shape", shape)}));
}

const bool registered = register_exporters({
    {"Dense", dense},
    {"EinsumDense", einsum_dense},
    {"Activation", activation_layer},
    {"Embedding", embedding},
    {"Masking", masking},
    {"Flatten", flatten},
    {"Reshape", reshape},
    {"Identity", identity},
    {"Dropout", identity},
    {"SpatialDropout1D", identity},
    {"SpatialDropout2D", identity},
    {"SpatialDropout3D", identity},
    {"GaussianNoise", identity},
    {"GaussianDropout", identity},
    {"AlphaDropout", identity},
    {"ActivityRegularization", identity},
});

}  // namespace
}  // namespace keras::onnx
