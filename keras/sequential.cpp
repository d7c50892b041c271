#include "keras/sequential.hpp"

#include <mutex>

#include <fmt/format.h>

#include "keras/config/codec.hpp"
#include "keras/functional_graph.hpp"
#include "layers/core/input_layer.hpp"

namespace keras {

Sequential::Sequential(std::initializer_list<LayerRef> layers, const std::string& name)
    : Sequential(std::vector<LayerRef>(layers), name) {}

struct Sequential::GraphMutex {
  std::mutex mutex;
};

Sequential::Sequential(const std::vector<LayerRef>& layers, const std::string& name)
    : Model(name, "sequential"), graph_mutex_(std::make_shared<GraphMutex>()) {
  strict_input_shape_ = false;  // the graph checks its input (after relax_input_shape)
  for (const auto& l : layers) add(l);
}

void Sequential::add(const LayerRef& ref) {
  const LayerPtr& layer = ref.ptr();
  if (!layer) throw ValueError("Sequential.add() received a null layer");
  if (auto input = std::dynamic_pointer_cast<layers::InputLayer>(layer)) {
    if (!layers_.empty() || input_layer_)
      throw ValueError("Sequential model '" + name() + "': an Input layer can only be the first layer");
    input_layer_ = input;
    input_given_ = true;
    set_batch_input_shape(*input->batch_input_shape());
    return;
  }
  if (layer->name() == (input_layer_ ? input_layer_->name() : ""))
    throw ValueError("All layers added to a Sequential model should have unique names. Name \"" + layer->name() +
                     "\" is already the name of the model's input layer");
  for (const auto& l : layers_)
    if (l->name() == layer->name())
      throw ValueError("All layers added to a Sequential model should have unique names. Name \"" + layer->name() +
                       "\" is already the name of a layer in this model");
  if (layers_.empty() && !input_layer_ && layer->batch_input_shape()) set_batch_input_shape(*layer->batch_input_shape());
  layers_.push_back(layer);
  // The input shape is known: grow the graph now, so summary() and shape errors show up at once, as in Keras.
  std::optional<Shape> shape = graph() ? graph()->inputs()[0].shape() : batch_input_shape();
  if (!shape) return;
  try {
    if (built()) build_graph(*shape);
    else ensure_built(*shape);
  } catch (...) {
    layers_.pop_back();
    if (!layers_.empty() && graph()) build_graph(*shape);
    throw;
  }
}

void Sequential::pop() {
  if (layers_.empty()) throw ValueError("There are no layers in the Sequential model '" + name() + "' to pop");
  layers_.pop_back();
  if (layers_.empty()) {
    // As Keras, an empty model is unbuilt. Unlike tf.keras 2.x, an input shape given up front (an Input or the
    // first layer's input_shape) is kept and fixes the shape of the next build.
    set_graph(nullptr);
    reset_built();
    if (!input_given_) input_layer_.reset();
  } else if (graph()) {
    build_graph(graph()->inputs()[0].shape());
  }
}

std::vector<LayerPtr> Sequential::layers() const { return layers_; }

void Sequential::build(const std::vector<Shape>& input_shapes) {
  if (input_shapes.size() != 1)
    throw ValueError(fmt::format("Sequential model '{}' takes one input, but it was built for {}", name(),
                                 input_shapes.size()));
  build(input_shapes[0]);
}

void Sequential::build(const Shape& input_shape) {
  if (layers_.empty()) throw ValueError("Sequential model '" + name() + "' has no layers to build");
  build_graph(batch_input_shape() ? *batch_input_shape() : input_shape);
}

void Sequential::build_graph(const Shape& shape) {
  if (!input_layer_ || (!input_given_ && (*input_layer_->batch_input_shape() != shape ||
                                          input_layer_->name() != layers_.front()->name() + "_input"))) {
    // tf.keras 2.x names the input it makes after the first layer ("dense_input").
    Shape features(shape.begin() + 1, shape.end());
    input_layer_ = std::make_shared<layers::InputLayer>(
        features, layers::InputLayerOptions{.name = layers_.front()->name() + "_input", .batch_size = shape.at(0)});
  }
  const Shape& input_shape = *input_layer_->batch_input_shape();
  const KerasTensor input(input_shape, input_layer_->input_dtype(), std::make_shared<Node>(Node{input_layer_, {}, {input_shape}}));
  KerasTensor x = input;
  for (const auto& l : layers_) {
    const auto outputs = l->call_all({x});
    if (outputs.size() != 1)
      throw ValueError(fmt::format("All layers in a Sequential model should have a single output tensor, but layer '{}' "
                                   "has {}. For multi-output layers, use the functional API.",
                                   l->name(), outputs.size()));
    x = outputs[0];
  }
  set_graph(std::make_shared<FunctionalGraph>(std::vector<KerasTensor>{input}, std::vector<KerasTensor>{x}, name()));
}

void Sequential::relax_input_shape(const Shape& got) {
  if (input_given_ || batch_input_shape() || !graph()) return;
  const Shape& want = graph()->inputs()[0].shape();
  if (want.size() != got.size()) return;  // the graph reports the mismatch
  Shape relaxed = want;
  bool changed = false;
  for (std::size_t d = 1; d < want.size(); ++d)
    if (want[d] >= 0 && want[d] != got[d]) {
      relaxed[d] = -1;
      changed = true;
    }
  if (!changed) return;
  auto previous = graph();
  try {
    build_graph(relaxed);
  } catch (const Error&) {
    set_graph(previous);  // a layer cannot take it: the graph's own check names the shapes
  }
}

std::shared_ptr<FunctionalGraph> Sequential::graph_for(const Shape& shape) {
  std::lock_guard lock(graph_mutex_->mutex);
  relax_input_shape(shape);
  return graph();
}

std::vector<Tensor> Sequential::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (inputs.size() == 1)
    if (auto g = graph_for(inputs[0].shape())) return g->run(inputs, context);
  return Model::call(inputs, context);  // the graph reports a wrong input count
}

Shape Sequential::compute_output_shape(const Shape& input_shape) const {
  Shape shape = input_shape;
  for (const auto& l : layers_) shape = l->compute_output_shape(shape);
  return shape;
}

json Sequential::get_config() const {
  json layer_configs = json::array();
  if (input_layer_) layer_configs.push_back(serialize_object("InputLayer", input_layer_->get_config()));
  for (const auto& l : layers_) layer_configs.push_back(serialize_object(l->class_name(), l->get_config()));
  return json{{"name", name()}, {"layers", layer_configs}};
}

std::shared_ptr<Layer> Sequential::from_config(const json& c) {
  auto model = std::make_shared<Sequential>(std::initializer_list<LayerRef>{}, config::value_or(c, "name", std::string()));
  const json& layer_configs = c.is_array() ? c : c.at("layers");
  for (const auto& lc : layer_configs) model->add(Layer::deserialize(lc));
  return model;
}

KERAS_REGISTER_LAYER(Sequential)

std::vector<std::string> Sequential::output_names() const {
  if (!graph() && !layers_.empty()) return {layers_.back()->name()};  // not built yet
  return Model::output_names();
}

}  // namespace keras
