#pragma once
// The chains of a functional graph that run fused (keras/epilogue.hpp). Predicting: a convolution and the
// element-wise layers after it (BatchNormalization in inference, a residual Add, an activation). Training:
// a BatchNormalization and a residual Add and a relu after it. Each is the only reader of the one before.
// The chain runs where its last node stands; its other nodes are skipped.
#include <map>
#include <memory>
#include <vector>

#include "keras/keras_tensor.hpp"

namespace keras {

struct FusedChain {
  const Node* head = nullptr;      // the convolution (Layer::takes_epilogue)
  std::vector<const Node*> steps;  // the layers its epilogue runs, in order; the last one is where it runs
  KerasTensor residual;            // an Add step's other input
};

struct FusedChains {
  std::map<const Node*, FusedChain> by_tail;  // each chain, by its last node
  std::map<const Node*, const Node*> member;  // every other node of a chain → its chain's last node
  // Training: a max pooling (Layer::commutes_with_relu) that is the only reader of a relu — a convolution's
  // own (Layer::defers_relu) or an Activation layer's — pools first, and the relu runs on the pooled
  // tensor: relu(pool(z)) = pool(relu(z)), with the relu's gradient over a tensor the pool's size (a
  // quarter, for 2 x 2 windows). By the pooling node: the node whose relu it takes over.
  std::map<const Node*, const Node*> relu_before_pool;
  std::map<const Node*, const Node*> relu_of_pool;  // that node → its pooling node
  // Predicting and training: a 2 x 2 max pooling (Layer::max_pools_2x2) that is the only reader of a layer,
  // which may run the two in one pass (Layer::call_max_pooled: a narrow convolution); where it does not, the
  // two run as above (in training, pooling before the relu if relu_before_pool has it too). By the pooling
  // node: the node before it.
  std::map<const Node*, const Node*> conv_before_pool;
  std::map<const Node*, const Node*> pool_of_conv;  // that node → its pooling node
  // Predicting: a layer that is the only reader of an Embedding without mask_zero (Layer::token_table), which
  // may look the ids up itself (Layer::call_on_tokens: an LSTM projecting each token once); where it does
  // not, the two run one after the other. By the reading node: the Embedding's node.
  std::map<const Node*, const Node*> embedding_before;
  std::map<const Node*, const Node*> reader_of_embedding;  // that node → the reading node
};

/// The chains of `nodes` (in execution order, every layer built) whose intermediate outputs nothing else
/// reads, `outputs` included: the steps in the order affine, add, activation, each at most once; and the
/// 2 x 2 max poolings after a layer that is not in a chain; the layers after an Embedding.
/// `training`: the chains that train fused instead — a head that trains_with_epilogue() (a
/// BatchNormalization), then an add and a relu, each optional; the 2 x 2 max poolings after a layer not in a
/// chain; and the max poolings after a relu.
FusedChains find_fused_chains(const std::vector<std::shared_ptr<Node>>& nodes, const std::vector<KerasTensor>& outputs,
                              bool training = false);

}  // namespace keras
