// FunctionalGraph's Keras configs: writing the graph as Keras 2's (or Keras 3's) functional config, and
// rebuilding it from either (the graph itself and its executor: functional_graph.cpp).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "keras/functional_graph.hpp"
#include "keras/json.hpp"
#include "layers/core/input_layer.hpp"
#include "layers/core/operation.hpp"

namespace keras {
namespace {

bool is_input_node(const Node& n) { return n.inputs.empty(); }

}  // namespace

json FunctionalGraph::get_config(const std::string& model_name, bool keras3_ops) const {
  auto ref = [&](const KerasTensor& t) {
    return json::array({t.node()->layer->name(), node_index(t.node().get()), t.index()});
  };
  json layer_configs = json::array();
  for (const auto& l : layers_) {
    auto* recorded = dynamic_cast<const layers::OpLayer*>(l.get());
    if (keras3_ops && recorded && !recorded->keras3_op().empty()) {  // KerasTensor arithmetic, as Keras 3 records it
      auto n = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& node) { return node->layer == l; });
      std::vector<json> refs;
      for (const auto& in : (*n)->inputs) refs.push_back(ref(in));
      layer_configs.push_back(recorded->keras3_entry((*n)->inputs, refs));
      continue;
    }
    json inbound = json::array();
    for (const auto& n : nodes_) {
      if (n->layer != l || is_input_node(*n)) continue;
      if (auto* op = dynamic_cast<const layers::OpLayer*>(l.get())) {  // a TFOpLambda / keras.ops node: its arguments
        std::vector<json> refs;
        for (const auto& in : n->inputs) refs.push_back(ref(in));
        inbound.push_back(op->node_config(n->inputs, refs));
        continue;
      }
      json call = json::array();
      for (const auto& in : n->inputs) {
        json r = ref(in);
        r.push_back(json::object());
        call.push_back(r);
      }
      inbound.push_back(call);
    }
    json entry = {{"class_name", l->class_name()}, {"config", l->get_config()}, {"name", l->name()},
                  {"inbound_nodes", inbound}};
    if (auto* op = dynamic_cast<const layers::OpLayer*>(l.get())) entry.update(op->entry_keys());
    layer_configs.push_back(entry);
  }
  // A model given a dict of inputs or outputs writes them as {key: ref}, as Keras writes a dict.
  auto refs = [&](const std::vector<KerasTensor>& tensors, const Form& form) {
    json out = form.keys.empty() ? json::array() : json::object();
    for (std::size_t i = 0; i < tensors.size(); ++i)
      form.keys.empty() ? out.push_back(ref(tensors[i])) : void(out[form.keys[i]] = ref(tensors[i]));
    return out;
  };
  const json ins = refs(inputs_, input_form_), outs = refs(outputs_, output_form_);
  return {{"name", model_name}, {"layers", layer_configs}, {"input_layers", ins}, {"output_layers", outs}};
}

namespace {

struct TensorRef {
  std::string layer;
  int node_index = 0;
  int tensor_index = 0;
};

// Keras 2: ["dense", 0, 0, {}]; Keras 3: {"class_name": "__keras_tensor__", "config": {"keras_history": [...]}}.
void collect_refs(const json& j, std::vector<TensorRef>& out) {
  if (j.is_object() && j.value("class_name", "") == "__keras_tensor__") {
    const json& h = j.at("config").at("keras_history");
    out.push_back({h.at(0).get<std::string>(), h.at(1).get<int>(), h.at(2).get<int>()});
  } else if (j.is_array() && j.size() >= 3 && j[0].is_string() && j[1].is_number_integer()) {
    out.push_back({j[0].get<std::string>(), j[1].get<int>(), j[2].get<int>()});
  } else if (j.is_array()) {
    for (const auto& e : j) collect_refs(e, out);
  } else if (j.is_object() && j.contains("args")) {
    collect_refs(j["args"], out);
  }
}

std::vector<TensorRef> refs_of(const json& j) {
  std::vector<TensorRef> out;
  collect_refs(j, out);
  return out;
}

// A layer call's tensors: the positional ones, then those an attention layer takes by keyword
// (`MultiHeadAttention(query, value=v, key=k)`), kept in Keras 2's 4th element or Keras 3's "kwargs".
std::vector<TensorRef> call_refs(const json& call) {
  std::vector<TensorRef> out = refs_of(call);
  std::vector<const json*> kwargs;
  if (call.is_object() && call.contains("kwargs") && call["kwargs"].is_object()) kwargs.push_back(&call["kwargs"]);
  if (call.is_array())
    for (const auto& t : call)
      if (t.is_array() && t.size() > 3 && t[3].is_object()) kwargs.push_back(&t[3]);
  for (const char* key : {"value", "key"})
    for (const json* k : kwargs)
      if (auto it = k->find(key); it != k->end() && !it->is_null()) {
        collect_refs(*it, out);
        break;
      }
  return out;
}

}  // namespace

void FunctionalGraph::set_forms(Form inputs, Form outputs) {
  if ((!inputs.keys.empty() && inputs.keys.size() != inputs_.size()) ||
      (!outputs.keys.empty() && outputs.keys.size() != outputs_.size()))
    throw ValueError("Model '" + model_name_ + "': a dict of inputs or outputs needs one key per tensor");
  input_form_ = std::move(inputs);
  output_form_ = std::move(outputs);
}

FunctionalGraph::Endpoints FunctionalGraph::from_config(const json& config) {
  struct Pending {
    LayerPtr layer;
    json call;
  };
  std::map<std::string, LayerPtr> layers;
  std::map<std::string, std::vector<std::vector<KerasTensor>>> outputs;  // per layer and node: the call's outputs
  std::vector<Pending> pending;
  for (const auto& lc : config.at("layers")) {
    const std::string name = lc.contains("name") ? lc["name"].get<std::string>() : lc.at("config").at("name").get<std::string>();
    LayerPtr layer = layers::Operation::from_entry(lc);  // a Keras 3 keras.ops node ("Add" of keras.src.ops.numpy)
    if (!layer) layer = Layer::deserialize(lc);
    layers[name] = layer;
    if (auto* input = dynamic_cast<layers::InputLayer*>(layer.get())) {
      auto node = std::make_shared<Node>(Node{layer, {}, {*input->batch_input_shape()}});
      outputs[name].push_back({KerasTensor(node->output_shapes[0], input->input_dtype(), node)});
    }
    for (const auto& call : lc.value("inbound_nodes", json::array())) pending.push_back({layer, call});
  }
  // Create the calls in order, deferring any whose inputs do not exist yet (as Keras does).
  while (!pending.empty()) {
    bool progress = false;
    for (auto it = pending.begin(); it != pending.end();) {
      std::vector<KerasTensor> args;
      bool ready = true;
      auto* op = dynamic_cast<layers::OpLayer*>(it->layer.get());
      std::vector<TensorRef> refs;
      if (op)  // an op node reads tensors in its keyword arguments too, and skips constants
        for (const auto& r : layers::OpLayer::tensor_refs(it->call)) refs.push_back({r.layer, r.node_index, r.tensor_index});
      else
        refs = call_refs(it->call);
      for (const auto& r : refs) {
        if (r.node_index < 0)
          throw ValueError("The model config reads node " + std::to_string(r.node_index) + " of layer '" + r.layer +
                           "': node indices start at 0");
        auto found = outputs.find(r.layer);
        if (found == outputs.end() || r.node_index >= int(found->second.size())) {
          ready = false;
          break;
        }
        const auto& call_outputs = found->second[r.node_index];
        if (r.tensor_index < 0 || r.tensor_index >= int(call_outputs.size()))
          throw ValueError("The model config reads output " + std::to_string(r.tensor_index) + " of layer '" + r.layer +
                           "', which has " + std::to_string(call_outputs.size()) + " output(s)");
        args.push_back(call_outputs[r.tensor_index]);
      }
      if (!ready) {
        ++it;
        continue;
      }
      if (args.empty()) throw ValueError("A node of layer '" + it->layer->name() + "' in the model config has no inputs");
      if (op) op->set_call_arguments(it->call);
      outputs[it->layer->name()].push_back(it->layer->call_all(args));
      it = pending.erase(it);
      progress = true;
    }
    if (!progress)
      throw ValueError("The model config refers to layer outputs that are never created (layer '" +
                       pending.front().layer->name() + "'); the config is inconsistent");
  }
  auto resolve = [&](const json& list, Form& form) {
    std::vector<std::string>& keys = form.keys;
    form.list = list.is_array() && !(list.size() >= 3 && list[0].is_string());
    // Keras writes a model's dict of inputs or outputs as {key: [layer, node, tensor]}; its tree.flatten
    // orders them by key, as json objects iterate here.
    std::vector<TensorRef> refs;
    if (list.is_object() && !list.contains("class_name") && !list.contains("args")) {
      for (const auto& [key, ref] : list.items()) {
        collect_refs(ref, refs);
        keys.resize(refs.size(), key);
      }
      if (keys.size() != refs.size()) keys.clear();
    } else {
      refs = refs_of(list);
    }
    std::vector<KerasTensor> out;
    for (const auto& r : refs) {
      auto found = outputs.find(r.layer);
      if (found == outputs.end() || r.node_index >= int(found->second.size()) || r.tensor_index < 0 ||
          r.tensor_index >= int(found->second[r.node_index].size()))
        throw ValueError("The model config names '" + r.layer + "' as an input or output, but it has no such node");
      out.push_back(found->second[r.node_index][r.tensor_index]);
    }
    return out;
  };
  Endpoints e;
  e.inputs = resolve(config.at("input_layers"), e.input_form);
  e.outputs = resolve(config.at("output_layers"), e.output_form);
  return e;
}

}  // namespace keras
