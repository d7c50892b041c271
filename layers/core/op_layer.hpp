#pragma once
// OpLayer: the base of the layers that stand for one raw operation in a functional graph: tf.keras 2.x's
// TFOpLambda and SlicingOpLambda (`tf.math.multiply(x, 2.0)`, `x[:, 0]`) and Keras 3's keras.ops nodes
// (`keras.ops.add(a, b)`). Such a call carries arguments besides its tensors (constants, axes, shapes,
// slice specs, more tensors among its keyword arguments). The layer keeps them as Keras wrote them, each
// tensor replaced by a placeholder {"__input__": i} in the order call() receives the tensors, and writes
// them back in the same form (Keras 2's `["dense", 0, 0, {"y": 2.0, "name": null}]` or Keras 3's
// `{"args": [...], "kwargs": {...}}`), so a load → save round trip keeps the node.
#include <memory>
#include <string>
#include <vector>

#include "keras/layer.hpp"

namespace keras::layers {

/// One tensor an op node reads: Keras's [layer name, node index, tensor index].
struct OpTensorRef {
  std::string layer;
  int node_index = 0;
  int tensor_index = 0;
};

/// Placeholder helpers: {"__input__": i} stands for input i of the call.
bool is_input_placeholder(const json& v);
json input_placeholder(int index);

class OpLayer : public Layer {
 public:
  /// How the node's arguments are written in inbound_nodes.
  enum class NodeForm { keras2, keras3 };

  OpLayer(const std::string& name, const std::string& default_prefix, bool trainable = true);

  /// The tensors an inbound_nodes entry reads, in the order call() receives them (Keras 2 list form, with
  /// references in the 4th element's keyword arguments and `_CONSTANT_VALUE` entries, or Keras 3's dict form).
  static std::vector<OpTensorRef> tensor_refs(const json& node);
  /// Takes the call's arguments from the node's inbound_nodes entry (the functional loader calls it before the
  /// call). A layer called twice must get the same arguments each time.
  void set_call_arguments(const json& node);
  /// Sets the arguments directly: positional and keyword, tensors as placeholders (C++ graph building).
  void set_call_arguments(json args, json kwargs, NodeForm form);
  /// The node's inbound_nodes entry for a call on tensors referenced as `refs` ([name, node, index] each).
  json node_config(const std::vector<KerasTensor>& inputs, const std::vector<json>& refs) const;
  /// Top-level keys of the layer's entry beside class_name/config/name/inbound_nodes (Keras 3's "module").
  virtual json entry_keys() const;

  /// A call kerascpp recorded from KerasTensor arithmetic (`a + b`, `x[:, 0]`) also knows the keras.ops node
  /// Keras 3 records for it: the op's class in keras.src.ops.numpy ("Add", "GetItem") and its positional
  /// arguments (tensors as placeholders). A .keras file writes that node, which Keras 3 loads; HDF5 keeps
  /// tf.keras 2.x's form. Empty for a node loaded from a file, which is written back as it was.
  void set_keras3_call(std::string op_class, json args);
  const std::string& keras3_op() const { return keras3_op_; }
  /// The Keras 3 entry of such a call: {"module", "class_name", "config", "registered_name", "name", "inbound_nodes"}.
  json keras3_entry(const std::vector<KerasTensor>& inputs, const std::vector<json>& refs) const;

  /// Positional and keyword arguments, tensors as placeholders.
  const json& call_args() const { return *args_; }
  const json& call_kwargs() const { return *kwargs_; }

  using Layer::build;
  using Layer::call;
  using Layer::compute_output_shape;
  /// No weights: any number of inputs.
  void build(const std::vector<Shape>&) override {}
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  /// As Keras: run the op on placeholders (unknown dimensions as 2, then 3) and read the shape; a dimension
  /// that follows the unknown ones is unknown.
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;

 protected:
  /// Runs the op on the call's arguments and its inputs.
  virtual Tensor evaluate(const std::vector<Tensor>& inputs) const = 0;
  /// "Layer 'tf.math.multiply' (TFOpLambda, function 'math.multiply')".
  virtual std::string who() const;

 private:
  json keras3_node(const json& args, const json& kwargs, const std::vector<KerasTensor>& inputs,
                   const std::vector<json>& refs) const;
  std::shared_ptr<const json> args_, kwargs_;  // shared by copies; replaced, never changed in place
  std::string keras3_op_;
  std::shared_ptr<const json> keras3_args_;
  NodeForm form_ = NodeForm::keras2;
  bool has_arguments_ = false;
};

}  // namespace keras::layers
