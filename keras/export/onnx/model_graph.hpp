#pragma once
// The nodes of a model's functional graph as ONNX nodes: each layer call in execution order through its
// exporter, a nested model's graph inline under the model's name.
#include <string>
#include <vector>

#include "keras/export/onnx/graph_builder.hpp"

namespace keras {
class Model;
}

namespace keras::onnx {

/// Exports `model`'s graph reading `inputs` (one ONNX value per model input); returns one value per model
/// output. A model without a graph (subclassed, or a Sequential never built) is a ValueError.
std::vector<std::string> export_model_graph(GraphBuilder& g, const Model& model, const std::vector<std::string>& inputs);

}  // namespace keras::onnx
