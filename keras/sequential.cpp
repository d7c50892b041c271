#include "keras/sequential.hpp"

#include "layers/core/input_layer.hpp"

namespace keras {

Sequential::Sequential(std::initializer_list<LayerRef> layers, const std::string& name)
    : Sequential(std::vector<LayerRef>(layers), name) {}

Sequential::Sequential(const std::vector<LayerRef>& layers, const std::string& name) : Model(name, "sequential") {
  for (const auto& l : layers) add(l);
}

void Sequential::add(const LayerRef& ref) {
  const LayerPtr& layer = ref.ptr();
  if (!layer) throw ValueError("Sequential.add() received a null layer");
  const bool is_input = dynamic_cast<layers::InputLayer*>(layer.get()) != nullptr;
  if (is_input && !layers_.empty())
    throw ValueError("Sequential model '" + name() + "': an Input layer can only be the first layer");
  for (const auto& l : layers_)
    if (l->name() == layer->name())
      throw ValueError("All layers added to a Sequential model should have unique names. Name \"" + layer->name() +
                       "\" is already the name of a layer in this model");
  layers_.push_back(layer);
  if (layers_.size() == 1 && layer->batch_input_shape()) set_batch_input_shape(*layer->batch_input_shape());
  if (batch_input_shape()) {
    // The input shape is known: build now so summary() and shape errors show up at once, as in Keras.
    if (built()) build(*batch_input_shape());
    else ensure_built(*batch_input_shape());
  }
}

void Sequential::pop() {
  if (layers().empty()) throw ValueError("There are no layers in the Sequential model '" + name() + "' to pop");
  layers_.pop_back();
}

std::vector<LayerPtr> Sequential::layers() const {
  std::vector<LayerPtr> out;
  for (const auto& l : layers_)
    if (!dynamic_cast<layers::InputLayer*>(l.get())) out.push_back(l);
  return out;
}

void Sequential::build(const Shape& input_shape) {
  if (layers_.empty()) throw ValueError("Sequential model '" + name() + "' has no layers to build");
  Shape shape = input_shape;
  for (const auto& l : layers_) {
    l->ensure_built(shape);
    shape = l->compute_output_shape(shape);
  }
}

Tensor Sequential::call(const Tensor& inputs, bool training) {
  Tensor x = inputs, mask;  // Keras's masks travel with the tensors from layer to layer
  for (const auto& l : layers_) {
    Tensor y = l->call_with_mask(x, mask, training);
    mask = l->compute_mask(x, mask);
    x = y;
  }
  return x;
}

Shape Sequential::compute_output_shape(const Shape& input_shape) const {
  Shape shape = input_shape;
  for (const auto& l : layers_) shape = l->compute_output_shape(shape);
  return shape;
}

json Sequential::get_config() const {
  json layer_configs = json::array();
  for (const auto& l : layers_) {
    json c = l->get_config();
    layer_configs.push_back(serialize_object(l->class_name(), c));
  }
  if (!layers_.empty() && !dynamic_cast<layers::InputLayer*>(layers_.front().get()) && batch_input_shape()) {
    // Keras writes the input as an InputLayer entry first.
    json s = json::array();
    for (auto d : *batch_input_shape()) s.push_back(d < 0 ? json(nullptr) : json(d));
    layer_configs.insert(layer_configs.begin(),
                         serialize_object("InputLayer", {{"batch_input_shape", s}, {"dtype", "float32"}, {"sparse", false},
                                                         {"ragged", false}, {"name", name() + "_input"}}));
  }
  return json{{"name", name()}, {"layers", layer_configs}};
}

std::shared_ptr<Layer> Sequential::from_config(const json& c) {
  auto model = std::make_shared<Sequential>(std::initializer_list<LayerRef>{}, c.value("name", ""));
  const json& layer_configs = c.is_array() ? c : c.at("layers");
  for (const auto& lc : layer_configs) model->add(Layer::deserialize(lc));
  return model;
}

namespace {
const bool registered = register_class<Layer, Sequential>("Sequential");
}

}  // namespace keras
