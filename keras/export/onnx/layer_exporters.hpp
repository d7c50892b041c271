#pragma once
// The exporters of layer classes: for each Keras class_name, the function that writes one call of such a
// layer as ONNX nodes. The built-in layers register theirs from keras/export/onnx/*_exporters.cpp; a
// user registers one for a class of their own, or for Lambda layers (whose Python-free C++ function ONNX
// cannot see):
//
//   keras::onnx::register_layer_exporter("Lambda", [](keras::onnx::GraphBuilder& g, const keras::Layer& layer,
//                                                      const keras::onnx::LayerCall& call) {
//     return std::vector<std::string>{g.op1("Mul", {call.inputs[0], g.scalar("two", 2.f)})};
//   });
#include <functional>
#include <string>
#include <vector>

#include "keras/export/onnx/graph_builder.hpp"

namespace keras {
class Layer;
}

namespace keras::onnx {

/// One call of a layer in the graph being exported.
struct LayerCall {
  std::vector<std::string> inputs;   // the ONNX values the call reads, one per input
  std::vector<Shape> input_shapes;   // their Keras shapes (batch dimension -1)
  std::vector<Shape> output_shapes;  // the shapes of the call's outputs
  /// The Keras mask of each input as a bool [batch, steps] value ("" where the input has none). Only the
  /// exporters of layers that read masks (RNNs, Bidirectional, GlobalAveragePooling1D, the attention layers)
  /// see masks; a mask reaching another mask-reading layer is refused.
  std::vector<std::string> masks;
  /// The mask of input `i`, "" when none.
  const std::string& mask(std::size_t i = 0) const {
    static const std::string none;
    return i < masks.size() ? masks[i] : none;
  }
  /// The Keras shape of input `i`.
  const Shape& shape(std::size_t i = 0) const { return input_shapes.at(i); }
};

/// Writes one call's nodes and returns its output values, one per output of the call.
using LayerExporter = std::function<std::vector<std::string>(GraphBuilder&, const Layer&, const LayerCall&)>;

/// Registers (or replaces) the exporter of a layer class_name.
void register_layer_exporter(const std::string& class_name, LayerExporter exporter);

/// Exports one call of `layer`: a model's graph inline, any other layer through its class's exporter; a
/// ValueError naming the layer when it has none.
std::vector<std::string> export_layer_call(GraphBuilder& g, const Layer& layer, const LayerCall& call);

/// The error of a layer that ONNX cannot express: "Layer 'lstm' (LSTM) cannot be exported to ONNX: <why>".
[[noreturn]] void not_exportable(const Layer& layer, const std::string& why);

}  // namespace keras::onnx
