#include "keras/fused_chains.hpp"

#include <utility>

#include "keras/layer.hpp"

namespace keras {

FusedChains find_fused_chains(const std::vector<std::shared_ptr<Node>>& nodes, const std::vector<KerasTensor>& outputs,
                              bool training) {
  // Who reads each tensor (node, output index); a model output counts as a reader of its own.
  std::map<std::pair<const Node*, int>, std::vector<const Node*>> readers;
  for (const auto& n : nodes)
    for (const auto& in : n->inputs) readers[{in.node().get(), in.index()}].push_back(n.get());
  for (const auto& t : outputs) readers[{t.node().get(), t.index()}].push_back(nullptr);
  auto only_reader = [&](const Node* n) -> const Node* {
    auto it = readers.find({n, 0});
    return it != readers.end() && it->second.size() == 1 ? it->second[0] : nullptr;
  };
  auto same_shape = [](const Shape& a, const Shape& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t d = 1; d < a.size(); ++d)
      if (a[d] < 0 || a[d] != b[d]) return false;
    return true;
  };

  FusedChains chains;
  for (const auto& n : nodes) {
    const bool head = training ? n->layer->trains_with_epilogue() : n->layer->takes_epilogue();
    if (n->inputs.size() != 1 || n->output_shapes.size() != 1 || !head || chains.member.count(n.get())) continue;
    FusedChain chain{.head = n.get()};
    using Kind = EpilogueStep::Kind;
    // The last step taken: 0 none, 1 affine (a training head is its own affine step), 2 add, 3 activation.
    int stage = training ? 1 : 0;
    for (const Node* at = n.get(); const Node* next = only_reader(at);) {
      // A node another chain runs (an Add whose other input was a chain's first) is not taken twice.
      if (next->output_shapes.size() != 1 || chains.member.count(next) || chains.by_tail.count(next)) break;
      const EpilogueStep step = next->layer->epilogue_step();
      const Kind kind = step.kind;
      if (kind == Kind::affine && stage < 1 && next->inputs.size() == 1) {
        stage = 1;
      } else if (kind == Kind::add && stage < 2 && next->inputs.size() == 2) {
        const KerasTensor& other = next->inputs[0].node().get() == at ? next->inputs[1] : next->inputs[0];
        if (other.node().get() == at || !same_shape(other.shape(), next->output_shapes[0]) ||
            !same_shape(n->output_shapes[0], next->output_shapes[0]))
          break;
        chain.residual = other;
        stage = 2;
      } else if (kind == Kind::activation && stage < 3 && next->inputs.size() == 1 &&
                 (!training || step.activation == kernels::Eltwise::relu)) {
        stage = 3;
      } else {
        break;
      }
      chain.steps.push_back(next);
      at = next;
    }
    if (chain.steps.empty()) continue;
    const Node* tail = chain.steps.back();
    chains.member[chain.head] = tail;
    for (const Node* s : chain.steps)
      if (s != tail) chains.member[s] = tail;
    chains.by_tail.emplace(tail, std::move(chain));
  }
  // The layer before a pooling node n, when n is its only reader and no chain takes it.
  auto sole_input = [&](const Node* n) -> const Node* {
    if (n->inputs.size() != 1 || n->output_shapes.size() != 1 || n->inputs[0].index() != 0) return nullptr;
    const Node* before = n->inputs[0].node().get();
    if (before->inputs.size() != 1 || before->output_shapes.size() != 1 || only_reader(before) != n ||
        chains.member.count(before) || chains.by_tail.count(before))
      return nullptr;
    return before;
  };
  for (const auto& n : nodes) {
    const Node* conv = n->layer->max_pools_2x2() ? sole_input(n.get()) : nullptr;
    if (!conv) continue;
    chains.conv_before_pool[n.get()] = conv;
    chains.pool_of_conv[conv] = n.get();
  }
  if (!training) {
    for (const auto& n : nodes) {
      const Node* reader = n.get();
      if (chains.member.count(reader) || chains.by_tail.count(reader) || chains.conv_before_pool.count(reader) ||
          chains.pool_of_conv.count(reader))
        continue;  // runs in a chain or a pair already
      const Node* embedding = sole_input(reader);
      if (!embedding || !embedding->layer->token_table() || chains.pool_of_conv.count(embedding)) continue;
      chains.embedding_before[reader] = embedding;
      chains.reader_of_embedding[embedding] = reader;
    }
    return chains;
  }
  for (const auto& n : nodes) {
    const Node* relu = n->layer->commutes_with_relu() ? sole_input(n.get()) : nullptr;
    if (!relu) continue;
    const EpilogueStep step = relu->layer->epilogue_step();
    if (relu->layer->defers_relu() ||
        (step.kind == EpilogueStep::Kind::activation && step.activation == kernels::Eltwise::relu)) {
      chains.relu_before_pool[n.get()] = relu;
      chains.relu_of_pool[relu] = n.get();
    }
  }
  return chains;
}

}  // namespace keras
