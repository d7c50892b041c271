#include "keras/functional_graph.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/nn.hpp"
#include "keras/profiler/trace_hooks.hpp"

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
  // Training: a max pooling after a relu pools first, then the relu runs on the pooled tensor
  // (keras/fused_chains.hpp): the same values, and the relu's gradient over a smaller tensor.
  // `relu` is a layer with a relu of its own (Layer::defers_relu) or a relu layer, as find_fused_chains found it.
  auto run_pool_before_relu = [&](const Node* pool, const Node* relu) {
    const KerasTensor& in = relu->inputs[0];
    Layer& r = *relu->layer;
    const bool own = r.defers_relu();
    if (mask(in).defined() || r.activity_regularizer() || pool->layer->activity_regularizer() ||
        value(in).dtype() != DType::float32) {
      run_node(relu);
      run_node(pool);
      return;
    }
    Tensor z = value(in);
    if (own) {
      profiler::Scope scope(r.name());
      z = r.call_without_relu(z);
    }
    CallContext call{.training = context.training};
    call.masks.push_back(Tensor());
    Tensor pooled = pool->layer->call_all({z}, call).at(0);
    profiler::Scope scope(r.name());
    values[pool] = {ops::relu(pooled)};
  };
  // A convolution and the 2 x 2 max pooling after it in one pass (keras/kernels/conv_max_pool.hpp) where the
  // convolution can, else one after the other (training: the pooling first where it may take the relu).
  auto run_conv_then_pool = [&](const Node* pool, const Node* conv) {
    const KerasTensor& in = conv->inputs[0];
    Layer& c = *conv->layer;
    Tensor pooled;
    if (!mask(in).defined() && !c.activity_regularizer() && !pool->layer->activity_regularizer()) {
      profiler::Scope scope(c.name());
      pooled = c.call_max_pooled(value(in));
    }
    if (pooled.defined()) {
      values[pool] = {pooled};
    } else if (auto it = chains->relu_before_pool.find(pool); it != chains->relu_before_pool.end()) {
      run_pool_before_relu(pool, conv);
    } else {
      run_node(conv);
      run_node(pool);
    }
  };
  // Predicting: a layer after an Embedding looking the ids up itself where it can (an LSTM), else the two.
  auto run_on_tokens = [&](const Node* reader, const Node* embedding) {
    const KerasTensor& in = embedding->inputs[0];
    Tensor out;
    const auto table = embedding->layer->token_table();
    if (table && !mask(in).defined() && !embedding->layer->activity_regularizer() &&
        !reader->layer->activity_regularizer()) {
      profiler::Scope scope(reader->layer->name());
      out = reader->layer->call_on_tokens(value(in), table->value());
    }
    if (out.defined()) {
      values[reader] = {out};
    } else {
      run_node(embedding);
      run_node(reader);
    }
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
      if (chains->member.count(n.get()) || chains->relu_of_pool.count(n.get()) || chains->pool_of_conv.count(n.get()) ||
          chains->reader_of_embedding.count(n.get()))
        continue;  // runs with its chain, its pooling or its reader
      if (auto it = chains->embedding_before.find(n.get()); it != chains->embedding_before.end()) {
        run_on_tokens(n.get(), it->second);
        done_reading(it->second);
        done_reading(n.get());
        continue;
      }
      if (auto it = chains->conv_before_pool.find(n.get()); it != chains->conv_before_pool.end()) {
        run_conv_then_pool(n.get(), it->second);
        done_reading(it->second);
        done_reading(n.get());
        continue;
      }
      if (auto it = chains->relu_before_pool.find(n.get()); it != chains->relu_before_pool.end()) {
        run_pool_before_relu(n.get(), it->second);
        done_reading(it->second);
        done_reading(n.get());
        continue;
      }
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

}  // namespace keras
