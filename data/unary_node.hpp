#pragma once
// What the transformations of one input Dataset share: the input, listed by inputs(), whose element_spec is
// theirs unless they override it, and the set-up of an iterator over it.
#include <memory>
#include <vector>

#include "data/dataset.hpp"

namespace keras::data {

/// Base of a node `Node` reading one Dataset: `class RepeatNode : public UnaryNode<RepeatNode>`.
template <class Node>
class UnaryNode : public DatasetNode {
 public:
  explicit UnaryNode(Dataset input) : input_(std::move(input)) {}
  std::vector<const DatasetNode*> inputs() const override { return {input_.node().get()}; }
  ElementSpec element_spec() const override { return input_.element_spec(); }

 protected:
  /// A new It whose `n` is this node and whose `input` is a fresh pass over the input.
  template <class It>
  std::unique_ptr<It> fresh_iterator() const {
    auto it = std::make_unique<It>();
    it->n = static_cast<const Node*>(this);
    it->input = input_.node()->make_iterator();
    return it;
  }

  Dataset input_;
};

}  // namespace keras::data
