#pragma once
// Sequential: a plain stack of layers, each taking the previous one's output. As in tf.keras 2.x, once
// the input shape is known (from an Input, a first layer's input_shape, build(), or the first call or
// fit) it becomes a functional graph (an InputLayer, then each layer called on the previous output)
// that the model runs like any functional model; add() and pop() rebuild that graph.
#include <initializer_list>
#include <memory>

#include "keras/model.hpp"

namespace keras {

namespace layers {
class InputLayer;
}

class Sequential : public Model {
 public:
  explicit Sequential(std::initializer_list<LayerRef> layers = {}, const std::string& name = "");
  explicit Sequential(const std::vector<LayerRef>& layers, const std::string& name = "");

  /// Appends a layer; when the input shape is known the graph grows at once (a layer that does not
  /// fit the previous output is refused and not added).
  void add(const LayerRef& layer);
  /// Removes the last layer (the graph, if built, is rebuilt without it).
  void pop();
  /// The added layers, without the InputLayer (as Keras's Sequential.layers).
  std::vector<LayerPtr> layers() const override;

  /// Builds the graph for inputs of this shape (an Input given up front wins, as in Keras).
  void build(const Shape& input_shape) override;
  void build(const std::vector<Shape>& input_shapes) override;
  /// Runs the graph (relaxing its input shape first when the data differ, as tf.keras 2.x does).
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  using Model::call;
  Shape compute_output_shape(const Shape& input_shape) const override;
  using Model::compute_output_shape;
  /// One output, named after the last layer (known before the graph is built).
  std::optional<std::size_t> output_count() const override { return 1; }
  std::vector<std::string> output_names() const override;
  /// Keras's Sequential table: no "Connected to" column, even once the graph is built.
  void summary(std::ostream& out) const override { summary_layers(out); }
  using Model::summary;
  /// Keras's Sequential config: {"name", "layers": [{"class_name", "config"}, ...]}, the InputLayer first
  /// once the input shape is known.
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  /// (Re)creates the graph from the input layer through every layer.
  void build_graph(const Shape& batch_input_shape);
  /// tf.keras 2.x: an input shape inferred from data (no Input given) becomes unknown (-1) in the dimensions
  /// where later data differ, and the graph is rebuilt (sequences of another length, say).
  void relax_input_shape(const Shape& shape);
  /// The graph to run inputs of this shape through, relaxed first if needed. Under a lock, so that calls
  /// from several threads (predict) may meet a rebuild: each runs the graph it got, old or new.
  std::shared_ptr<FunctionalGraph> graph_for(const Shape& shape);
  /// Guards rebuilds of the graph (a std::mutex, defined in sequential.cpp; shared because a mutex member
  /// would make Sequential immovable).
  struct GraphMutex;
  std::shared_ptr<GraphMutex> graph_mutex_;
  std::vector<LayerPtr> layers_;
  std::shared_ptr<layers::InputLayer> input_layer_;  // given by the user, or made as "<first layer>_input"
  bool input_given_ = false;                         // input_layer_ came from the user's list

  KERAS_LAYER(Sequential)
};

}  // namespace keras
