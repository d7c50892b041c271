#include "keras/export/onnx/model_graph.hpp"

#include <algorithm>
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

// Layers whose Keras call reads the mask of its inputs. ONNX has no masks: the exporters of kMaskExporters
// compute the masked result from the mask values of LayerCall::masks; a mask reaching any other reader is refused
// rather than exported with another result.
const std::set<std::string> kMaskReaders = {"SimpleRNN", "LSTM", "GRU", "RNN", "Bidirectional", "TimeDistributed",
                                            "Attention", "AdditiveAttention", "MultiHeadAttention",
                                            "GlobalAveragePooling1D", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"};
const std::set<std::string> kMaskExporters = {"SimpleRNN", "LSTM", "GRU", "RNN", "Bidirectional",
                                              "GlobalAveragePooling1D", "Attention", "AdditiveAttention",
                                              "MultiHeadAttention"};
const std::set<std::string> kMerges = {"Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"};

constexpr std::int64_t kBool = 9, kFloat = 1;

// Whether a nested model holds a layer that reads masks (the export does not carry masks into nested graphs).
bool reads_masks(const Layer& layer) {
  if (kMaskReaders.count(layer.class_name())) return true;
  if (const auto* model = dynamic_cast<const Model*>(&layer))
    for (const auto& inner : model->layers())
      if (reads_masks(*inner)) return true;
  return false;
}

// The product of the defined masks (Keras's merged mask), "" when none is.
std::string merged(GraphBuilder& g, const std::vector<std::string>& masks) {
  std::string all;
  for (const auto& m : masks)
    if (!m.empty()) all = all.empty() ? m : g.op1("And", {all, m});
  return all;
}

// The Keras mask of each output of `call`, as the layers' compute_mask gives it: bool [batch, steps] values,
// "" for none.
std::vector<std::string> output_masks(GraphBuilder& g, const Layer& layer, const LayerCall& call, std::size_t outputs) {
  std::vector<std::string> out(outputs);
  const std::string& cls = layer.class_name();
  if (cls == "Masking") {  // a step is kept when any feature differs from mask_value
    const float value = layer.get_config().value("mask_value", 0.f);
    const std::string differs = g.op1("Cast", {g.op1("Not", {g.op1("Equal", {call.inputs[0], g.scalar("mask_value", value)})})},
                                      {{"to", kFloat}});
    const std::string any = g.op1("ReduceMax", {differs}, {{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{0}}});
    out[0] = g.op1("Cast", {any}, {{"to", kBool}});
    return out;
  }
  if (cls == "Embedding") {
    if (layer.get_config().value("mask_zero", false))
      out[0] = g.op1("Not", {g.op1("Equal", {g.op1("Cast", {call.inputs[0]}, {{"to", kFloat}}), g.scalar("zero", 0.f)})});
    return out;
  }
  if (std::all_of(call.masks.begin(), call.masks.end(), [](const std::string& m) { return m.empty(); })) return out;
  if (cls == "SimpleRNN" || cls == "LSTM" || cls == "GRU" || cls == "RNN") {
    if (layer.get_config().value("return_sequences", false)) out[0] = call.masks[0];
  } else if (cls == "Bidirectional") {
    const json c = layer.get_config();
    if (c.contains("layer") && c["layer"].value("config", json::object()).value("return_sequences", false))
      out[0] = call.masks[0];
  } else if (cls == "Attention" || cls == "AdditiveAttention" || cls == "MultiHeadAttention") {
    out[0] = call.masks[0];
  } else if (kMerges.count(cls)) {
    out[0] = merged(g, call.masks);
  } else if (cls == "Concatenate") {
    const auto axis = layer.get_config().value("axis", -1);
    if (axis == -1 || axis == static_cast<int>(call.shape().size()) - 1) out[0] = merged(g, call.masks);
  } else if (call.inputs.size() == 1 && layer.supports_masking()) {
    out[0] = call.masks[0];
  }
  return out;
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
  std::map<const Node*, std::vector<std::string>> masks;
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
      const auto& m = masks[in.node().get()];
      call.masks.push_back(static_cast<std::size_t>(in.index()) < m.size() ? m[static_cast<std::size_t>(in.index())] : "");
      input_masked = input_masked || !call.masks.back().empty();
    }
    call.output_shapes = n->output_shapes;
    const std::string& cls = n->layer->class_name();
    if (input_masked && kMaskReaders.count(cls) && !kMaskExporters.count(cls))
      not_exportable(*n->layer,
                     "its input carries a Keras mask (from Masking or Embedding(mask_zero=true)), and the ONNX export "
                     "computes masked results only for SimpleRNN, LSTM, GRU, RNN, Bidirectional, "
                     "GlobalAveragePooling1D and the attention layers; remove the mask or export the model without the masking layer");
    if (input_masked && dynamic_cast<const Model*>(n->layer.get()) && reads_masks(*n->layer))
      not_exportable(*n->layer,
                     "its input carries a Keras mask and it holds a layer that reads masks; the ONNX export does not "
                     "carry masks into nested models (call the inner layers in the outer model instead)");
    g.set_scope(outer_scope.empty() ? n->layer->name() : outer_scope + "/" + n->layer->name());
    auto out = export_layer_call(g, *n->layer, call);
    if (out.size() != n->output_shapes.size())
      throw ValueError("The ONNX exporter of layer '" + n->layer->name() + "' gave " + std::to_string(out.size()) +
                       " outputs where the graph expects " + std::to_string(n->output_shapes.size()));
    masks[n] = output_masks(g, *n->layer, call, out.size());
    values[n] = std::move(out);
  }
  g.set_scope(outer_scope);
  std::vector<std::string> out;
  for (const auto& t : graph->outputs()) out.push_back(values.at(t.node().get()).at(t.index()));
  return out;
}

}  // namespace keras::onnx
