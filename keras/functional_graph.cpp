#include "keras/functional_graph.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/json.hpp"
#include "keras/profiler/trace_hooks.hpp"
#include "layers/core/input_layer.hpp"
#include "layers/core/operation.hpp"

namespace keras {
namespace {

bool is_input_node(const Node& n) { return n.inputs.empty(); }

}  // namespace

FunctionalGraph::FunctionalGraph(std::vector<KerasTensor> inputs, std::vector<KerasTensor> outputs,
                                 const std::string& model_name)
    : inputs_(std::move(inputs)), outputs_(std::move(outputs)), model_name_(model_name) {
  if (inputs_.empty() || outputs_.empty())
    throw ValueError("Model '" + model_name + "' needs at least one input and one output KerasTensor");
  for (const auto& t : inputs_)
    if (!t.defined() || !is_input_node(*t.node()))
      throw ValueError("Model '" + model_name + "': every input must come from keras::Input(...), got " + t.str());
  // Depth-first from the outputs: a node is listed after everything it reads; a layer's first visit is
  // numbered (Keras's traversal order).
  std::set<const Node*> seen;
  std::map<const Layer*, std::size_t> visit_order;
  std::function<void(const std::shared_ptr<Node>&)> visit = [&](const std::shared_ptr<Node>& n) {
    if (!seen.insert(n.get()).second) return;
    const std::size_t order = visit_order.size();
    visit_order.emplace(n->layer.get(), order);
    for (const auto& in : n->inputs) visit(in.node());
    nodes_.push_back(n);
  };
  for (const auto& t : outputs_) {
    if (!t.defined()) throw ValueError("Model '" + model_name + "': an output KerasTensor is undefined");
    visit(t.node());
  }
  for (const auto& n : nodes_)
    if (is_input_node(*n) && std::none_of(inputs_.begin(), inputs_.end(), [&](const KerasTensor& t) { return t.node() == n; }))
      throw ValueError("Graph disconnected: the output of model '" + model_name + "' depends on input layer '" +
                       n->layer->name() + "', which is not among the model's inputs");
  for (const auto& n : nodes_)
    for (const auto& in : n->inputs) ++readers_[in.node().get()];
  for (const auto& t : outputs_) readers_[t.node().get()] = std::numeric_limits<int>::max() / 2;
  // Keras's model.layers order: by decreasing depth (a node's depth is its longest path to an output; a
  // layer's, its deepest node's), then in traversal order (map_graph in keras/src/ops/function.py).
  std::map<const Node*, int> node_depth;
  std::map<const Layer*, int> layer_depth;
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    const int depth = std::max(node_depth[it->get()], layer_depth[(*it)->layer.get()]);
    node_depth[it->get()] = layer_depth[(*it)->layer.get()] = depth;
    for (const auto& in : (*it)->inputs) node_depth[in.node().get()] = std::max(node_depth[in.node().get()], depth + 1);
  }
  for (const auto& n : nodes_)
    if (std::find(layers_.begin(), layers_.end(), n->layer) == layers_.end()) layers_.push_back(n->layer);
  std::stable_sort(layers_.begin(), layers_.end(), [&](const LayerPtr& a, const LayerPtr& b) {
    const int da = layer_depth[a.get()], db = layer_depth[b.get()];
    return da != db ? da > db : visit_order[a.get()] < visit_order[b.get()];
  });
  std::set<std::string> names;
  for (const auto& l : layers_)
    if (!names.insert(l->name()).second)
      throw ValueError("The name \"" + l->name() + "\" is used 2 times in model '" + model_name +
                       "'. All layer names should be unique.");
}

std::vector<Tensor> FunctionalGraph::run(const std::vector<Tensor>& inputs, const CallContext& context) const {
  if (inputs.size() != inputs_.size())
    throw ValueError("The model expects " + std::to_string(inputs_.size()) + " input(s), but it received " +
                     std::to_string(inputs.size()));
  std::map<const Node*, std::vector<Tensor>> values, masks;  // every output of each call, and its Keras mask
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Shape& want = inputs_[i].shape();
    const Shape& got = inputs[i].shape();
    bool ok = want.size() == got.size();
    // As tf.keras 2.x, the batch dimension is not checked (a layer that needs a fixed batch checks it).
    for (std::size_t d = 1; ok && d < want.size(); ++d) ok = want[d] < 0 || want[d] == got[d];
    if (!ok)
      throw ValueError(fmt::format("Input {} (\"{}\") of model \"{}\" is incompatible with the model: expected shape={}, "
                                   "found shape={}",
                                   i, inputs_[i].node()->layer->name(), model_name_, shape_str(want), shape_str(got)));
    values[inputs_[i].node().get()] = {inputs[i]};
    masks[inputs_[i].node().get()] = {context.mask(i)};
  }
  auto value = [&](const KerasTensor& t) -> const Tensor& { return values.at(t.node().get()).at(t.index()); };
  auto mask = [&](const KerasTensor& t) {
    const auto& m = masks[t.node().get()];
    return static_cast<std::size_t>(t.index()) < m.size() ? m[t.index()] : Tensor();
  };
  auto run_node = [&](const Node* n) {
    std::vector<Tensor> args;
    CallContext call{.training = context.training};
    for (const auto& in : n->inputs) {
      args.push_back(value(in));
      call.masks.push_back(mask(in));
    }
    std::vector<Tensor>& out = values[n] = n->layer->call_all(args, call);
    if (out.size() != n->output_shapes.size())
      throw ValueError("Layer '" + n->layer->name() + "' returned " + std::to_string(out.size()) +
                       " outputs where the graph expects " + std::to_string(n->output_shapes.size()));
    masks[n] = n->layer->compute_mask(args, call.masks);
  };
  // Predicting: each chain of a convolution and the element-wise layers after it runs as one convolution
  // where its last node stands (keras/epilogue.hpp). Training: each chain of a BatchNormalization and a
  // residual Add and a relu after it runs as one batch normalization. A chain whose input carries a mask,
  // or whose layers have activity regularizers, runs layer by layer. A compiled train step traces the fused
  // chains too (their batch normalization replays), so that it runs the same float operations as eager.
  const bool fuse_training = context.training;
  const bool fuse = fuse_training || (!context.training && !autodiff::recording() && !jit::tracing());
  const std::shared_ptr<const FusedChains> chains = fuse ? fused_chains(fuse_training) : nullptr;
  auto run_chain = [&](const FusedChain& chain) {
    const KerasTensor& in = chain.head->inputs[0];
    Epilogue epilogue;
    bool fusable = !mask(in).defined() && !chain.head->layer->activity_regularizer();
    for (const Node* s : chain.steps) {
      EpilogueStep step = s->layer->epilogue_step();
      fusable = fusable && !s->layer->activity_regularizer();
      switch (step.kind) {
        case EpilogueStep::Kind::affine: epilogue.scale = std::move(step.scale), epilogue.shift = std::move(step.shift); break;
        case EpilogueStep::Kind::add:
          epilogue.residual = value(chain.residual);
          fusable = fusable && !mask(chain.residual).defined();
          break;
        case EpilogueStep::Kind::activation: epilogue.activation = step.activation; break;
        case EpilogueStep::Kind::none: fusable = false; break;
      }
    }
    if (fuse_training) {
      fusable = fusable && chain.head->layer->trains_with_epilogue() &&
                (!epilogue.residual.defined() || epilogue.residual.shape() == value(in).shape());
    } else {
      fusable = fusable && chain.head->layer->takes_epilogue();
    }
    if (!fusable) {
      run_node(chain.head);
      for (const Node* s : chain.steps) run_node(s);
      return;
    }
    Layer& head = *chain.head->layer;
    profiler::Scope scope(head.name());  // a tracer sees the fused op in the scope of the chain's first layer
    values[chain.steps.back()] = {fuse_training ? head.train_with_epilogue(value(in), epilogue)
                                                : head.call_with_epilogue(value(in), epilogue)};
  };
  // A node's outputs are dropped once every node that reads them has run: a model's activations then go
  // back to the memory pool as they die and are handed out again while still in the CPU's caches. (Kept to
  // the end, ResNet-20's at batch 32 made its 3 x 3 convolutions take 1.25-1.65x their time in isolation;
  // dropped, predict runs about 10% more samples per second.)
  std::map<const Node*, int> unread = readers_;
  auto done_reading = [&](const Node* n) {
    for (const auto& in : n->inputs)
      if (--unread[in.node().get()] == 0) {
        values.erase(in.node().get());
        masks.erase(in.node().get());
      }
  };
  for (const auto& n : nodes_) {
    if (is_input_node(*n)) continue;
    if (chains) {
      if (chains->member.count(n.get())) continue;  // runs with its chain
      if (auto it = chains->by_tail.find(n.get()); it != chains->by_tail.end()) {
        run_chain(it->second);
        done_reading(it->second.head);
        for (const Node* s : it->second.steps) done_reading(s);
        continue;
      }
    }
    run_node(n.get());
    done_reading(n.get());
  }
  std::vector<Tensor> out;
  for (const auto& t : outputs_) out.push_back(value(t));
  return out;
}

std::shared_ptr<const FusedChains> FunctionalGraph::fused_chains(bool training) const {
  std::lock_guard<std::mutex> hold(fusion_->lock);
  std::shared_ptr<const FusedChains>& chains = training ? fusion_->training_chains : fusion_->chains;
  if (!chains) {
    for (const auto& n : nodes_)
      if (!is_input_node(*n) && !n->layer->built()) return nullptr;  // found once every layer is built
    chains = std::make_shared<const FusedChains>(find_fused_chains(nodes_, outputs_, training));
  }
  return chains;
}

int FunctionalGraph::node_index(const Node* node) const {
  int index = 0;
  for (const auto& n : nodes_) {
    if (n.get() == node) return index;
    if (n->layer == node->layer) ++index;
  }
  return -1;
}

std::vector<Shape> FunctionalGraph::output_shapes_of(const LayerPtr& layer) const {
  for (const auto& n : nodes_)
    if (n->layer == layer) return n->output_shapes;
  return {};
}

std::vector<std::string> FunctionalGraph::connected_to(const LayerPtr& layer) const {
  std::vector<std::string> out;
  for (const auto& n : nodes_)
    if (n->layer == layer)
      for (const auto& in : n->inputs)
        out.push_back(in.node()->layer->name() + "[" + std::to_string(node_index(in.node().get())) + "][" +
                      std::to_string(in.index()) + "]");
  return out;
}

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
