#pragma once
// load_onnx's translator: ONNX nodes, in order, to Keras layers called on KerasTensors. A value the ONNX graph
// holds in another layout than Keras (channels-first around a Conv, time-major around a recurrent op) is the
// KerasTensor it views, marked; the Transpose (Squeeze, Slice) that undoes the view clears the mark.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "keras/errors.hpp"
#include "keras/import/onnx/onnx_reading.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"

namespace keras::onnx {

struct Value {
  KerasTensor tensor;
  bool channels_first = false;
  /// Views of a recurrent layer's tensors: "time_major" ([time, batch, ...]), "time_major_directions" (ONNX's
  /// Y, [time, 1, batch, units]), "directions_first" (Y_h, Y_c: [1, batch, units]); "" for Keras's own layout.
  std::string mark{};
  bool reversed = false;  // time-major and reversed in time against the KerasTensor (go_backwards)
};

class Translator {
 public:
  Translator(const OnnxGraph& graph, const std::string& path) : graph_(graph), path_(path) {
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
      for (const auto& in : graph.nodes[i].inputs) readers_[in].push_back(i);
  }

  /// Translates every node and returns the model from the graph's inputs to its outputs; a ValueError listing
  /// every op without a translation.
  std::shared_ptr<Model> run();

 private:
  const OnnxGraph& graph_;
  std::string path_;
  std::map<std::string, Value> values_;
  std::map<std::string, std::vector<std::size_t>> readers_;
  std::set<std::size_t> done_;
  std::set<std::string> unsupported_;

  const Value& value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) throw ValueError("load_onnx: value '" + name + "' of " + path_ + " is not computed by any node it reads");
    return it->second;
  }
  bool is_constant(const std::string& name) const { return graph_.constants.count(name) > 0; }
  const Tensor& constant(const std::string& name) const { return graph_.constants.at(name); }

  // The one node reading `name` when it is `op` with a constant second operand (the value is not a graph output).
  std::optional<std::size_t> only_reader(const std::string& name, const std::string& op) const {
    auto it = readers_.find(name);
    if (it == readers_.end() || it->second.size() != 1) return std::nullopt;
    if (std::find(graph_.outputs.begin(), graph_.outputs.end(), name) != graph_.outputs.end()) return std::nullopt;
    const OnnxNode& n = graph_.nodes[it->second[0]];
    if (n.op != op || n.inputs.size() != 2 || !is_constant(n.inputs[1]) || n.inputs[0] != name) return std::nullopt;
    return it->second[0];
  }

  // Calls a layer made from its Keras config on `inputs` and sets its weights.
  KerasTensor apply(const std::string& class_name, json config, const std::vector<KerasTensor>& inputs,
                    const std::vector<Tensor>& weights = {}) {
    auto layer = Layer::deserialize({{"class_name", class_name}, {"config", std::move(config)}});
    KerasTensor out = inputs.size() == 1 ? (*layer)(inputs[0]) : (*layer)(inputs);
    if (!weights.empty()) layer->set_weights(weights);
    return out;
  }

  void unsupported(const OnnxNode& n, const std::string& why = "") { unsupported_.insert(n.op + (why.empty() ? "" : " (" + why + ")")); }

  void translate(std::size_t index);
  void translate_reshape(const OnnxNode& n);
  /// The layout views of recurrent ops (Transpose [1, 0, 2], Squeeze, the reversing Slice): whether `n` is one.
  bool translate_view(const OnnxNode& n);
  void translate_recurrent(std::size_t index);
  void translate_bidirectional(std::size_t index, json cell_config, const std::string& cell_class,
                               const std::vector<Tensor>& weights);
  void translate_conv(const OnnxNode& n);
  void translate_pool(const OnnxNode& n);
  void translate_matmul(std::size_t index);
  void translate_scale(std::size_t index);
};


}  // namespace keras::onnx
