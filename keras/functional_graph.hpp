#pragma once
// The graph behind a functional model: the layer calls (Nodes) between its inputs and outputs, in
// an order where each node comes after the nodes it reads from, plus Keras's JSON form of it.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "keras/fused_chains.hpp"
#include "keras/keras_tensor.hpp"
#include "keras/layer.hpp"

namespace keras {

class FunctionalGraph {
 public:
  FunctionalGraph(std::vector<KerasTensor> inputs, std::vector<KerasTensor> outputs, const std::string& model_name);

  /// Runs the graph on concrete inputs (one per model input) and returns one tensor per output. The
  /// context's masks are the Keras masks the inputs arrive with; each call passes its outputs' masks on.
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, const CallContext& context) const;

  const std::vector<KerasTensor>& inputs() const { return inputs_; }
  const std::vector<KerasTensor>& outputs() const { return outputs_; }
  /// Every layer once, in Keras's model.layers order: by decreasing depth, then in traversal order.
  const std::vector<LayerPtr>& layers() const { return layers_; }
  /// The output shapes of the layer's first call in this graph (several for a layer with several outputs).
  std::vector<Shape> output_shapes_of(const LayerPtr& layer) const;
  /// Per layer row of summary(): "input_1[0][0]" for each tensor feeding each of its calls.
  std::vector<std::string> connected_to(const LayerPtr& layer) const;

  /// Keras 2's functional config: {"name", "layers": [... "inbound_nodes" ...], "input_layers", "output_layers"};
  /// with `keras3_ops`, KerasTensor arithmetic is written as the keras.ops nodes Keras 3 records.
  json get_config(const std::string& model_name, bool keras3_ops = false) const;
  /// How the model was given its inputs or its outputs, which Keras writes back in that form: one tensor,
  /// a list (`[x]` stays a list of one), or a dict {key: tensor} (one key per tensor, in their order).
  struct Form {
    bool list = false;
    std::vector<std::string> keys;  // non-empty: a dict
  };
  /// The inputs and outputs of a functional config, and the form each was written in.
  struct Endpoints {
    std::vector<KerasTensor> inputs, outputs;
    Form input_form, output_form;
  };
  /// Rebuilds the graph from Keras 2 or Keras 3 functional configs.
  static Endpoints from_config(const json& config);
  void set_forms(Form inputs, Form outputs);
  const Form& input_form() const { return input_form_; }
  const Form& output_form() const { return output_form_; }

 private:
  std::vector<KerasTensor> inputs_, outputs_;
  std::vector<std::shared_ptr<Node>> nodes_;  // execution order
  /// How many node inputs read each node's outputs (a model output counts as a reader that never
  /// finishes): run() drops a node's outputs after their last reader, so that a deep model's
  /// activations are not all alive at once.
  std::map<const Node*, int> readers_;
  std::vector<LayerPtr> layers_;
  Form input_form_, output_form_;
  std::string model_name_;
  /// Index of a node among the nodes of the same layer in this graph (Keras's node_index).
  int node_index(const Node* node) const;
  /// The chains that run fused when predicting and when training (keras/fused_chains.hpp), each found at
  /// the first such run whose layers are all built; shared by copies of the graph (they share its nodes).
  struct Fusion {
    std::mutex lock;
    std::shared_ptr<const FusedChains> chains, training_chains;
  };
  std::shared_ptr<Fusion> fusion_ = std::make_shared<Fusion>();
  std::shared_ptr<const FusedChains> fused_chains(bool training) const;
};

}  // namespace keras
