#include "keras/export/onnx/model_graph.hpp"

#include <functional>
#include <map>
#include <set>

#include "keras/errors.hpp"
#include "keras/export/onnx/layer_exporters.hpp"
#include "keras/functional_graph.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"

namespace keras::onnx {
namespace {

// Layers whose Keras call reads the mask of its inputs: ONNX has no masks, so such a call under a mask is not
// exported rather than exported with another result.
const std::set<std::string> kMaskReaders = {"SimpleRNN", "LSTM", "GRU", "RNN", "Bidirectional", "TimeDistributed",
                                            "Attention", "AdditiveAttention", "MultiHeadAttention",
                                            "GlobalAveragePooling1D", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"};

// Whether a call's outputs carry a Keras mask, given whether its inputs do.
bool makes_mask(const Layer& layer, bool input_masked) {
  if (layer.class_name() == "Masking") return true;
  if (layer.class_name() == "Embedding") return layer.get_config().value("mask_zero", false);
  return input_masked && layer.supports_masking();
}

}  // namespace

std::vector<std::string> export_model_graph(GraphBuilder& g, const Model& model, const std::vector<std::string>& inputs) {
  const auto& graph = model.graph();
  if (!graph)
    throw ValueError("Model '" + model.name() +
                     "' cannot be exported to ONNX: it has no graph of layer calls (a subclassed model, or a "
                     "Sequential model that was never built; build it or give its first layer an input shape)");
  if (inputs.size() != graph->inputs().size())
    throw ValueError("Model '" + model.name() + "' has " + std::to_string(graph->inputs().size()) +
                     " inputs; the ONNX export was given " + std::to_string(inputs.size()));
  // Every node once, after the nodes it reads (depth first from the outputs, as the graph runs them).
  std::vector<const Node*> order;
  std::set<const Node*> seen;
  std::function<void(const Node*)> visit = [&](const Node* n) {
    if (!seen.insert(n).second) return;
    for (const auto& in : n->inputs) visit(in.node().get());
    order.push_back(n);
  };
  for (const auto& t : graph->outputs()) visit(t.node().get());

  std::map<const Node*, std::vector<std::string>> values;
  std::map<const Node*, bool> masked;
  for (std::size_t i = 0; i < inputs.size(); ++i) values[graph->inputs()[i].node().get()] = {inputs[i]};
  const std::string outer_scope = g.scope();
  for (const Node* n : order) {
    if (n->inputs.empty()) {
      if (!values.count(n))
        throw ValueError("Model '" + model.name() + "': input layer '" + n->layer->name() + "' is not a model input");
      continue;
    }
    LayerCall call;
    bool input_masked = false;
    for (const auto& in : n->inputs) {
      call.inputs.push_back(values.at(in.node().get()).at(in.index()));
      call.input_shapes.push_back(in.shape());
      input_masked = input_masked || masked[in.node().get()];
    }
    call.output_shapes = n->output_shapes;
    if (input_masked && kMaskReaders.count(n->layer->class_name()))
      not_exportable(*n->layer,
                     "its input carries a Keras mask (from Masking or Embedding(mask_zero=true)), and ONNX has no masks; "
                     "remove the mask or export the model without the masking layer");
    g.set_scope(outer_scope.empty() ? n->layer->name() : outer_scope + "/" + n->layer->name());
    auto out = export_layer_call(g, *n->layer, call);
    if (out.size() != n->output_shapes.size())
      throw ValueError("The ONNX exporter of layer '" + n->layer->name() + "' gave " + std::to_string(out.size()) +
                       " outputs where the graph expects " + std::to_string(n->output_shapes.size()));
    values[n] = std::move(out);
    masked[n] = makes_mask(*n->layer, input_masked);
  }
  g.set_scope(outer_scope);
  std::vector<std::string> out;
  for (const auto& t : graph->outputs()) out.push_back(values.at(t.node().get()).at(t.index()));
  return out;
}

}  // namespace keras::onnx
