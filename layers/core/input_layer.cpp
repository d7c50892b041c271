#include "layers/core/input_layer.hpp"

#include "keras/config/codec.hpp"
#include "keras/config/dtype_policy.hpp"
#include "keras/json.hpp"

namespace keras::layers {

InputLayer::InputLayer(const Shape& shape, InputLayerOptions options)
    : Layer(options.name.empty() ? backend::unique_name("input", false) : options.name, "input", true) {
  for (auto d : shape)
    if (d == 0 || d < -1)
      throw ValueError("Input shape " + shape_str(shape) + " is invalid: dimensions must be positive (or -1 for unknown)");
  // Strings and integers keep their dtype; a float of another width (float16, ...) computes as float32.
  if (options.dtype == "string" || options.dtype.starts_with("int") || options.dtype.starts_with("uint") ||
      options.dtype == "bool") {
    try {
      dtype_ = dtype_from_name(options.dtype);
    } catch (const Error&) {  // int16, uint32, ...: read as float32, as before dtypes were kept
    }
  }
  Shape batch{options.batch_size};
  batch.insert(batch.end(), shape.begin(), shape.end());
  set_batch_input_shape(batch);
}

json InputLayer::get_config() const {
  json c{{"name", name()}, {"dtype", dtype_name(dtype_)}, {"sparse", false}, {"ragged", false}};
  json s = json::array();
  for (auto d : *batch_input_shape()) s.push_back(d < 0 ? json(nullptr) : json(d));
  c["batch_input_shape"] = s;
  return c;
}

std::shared_ptr<Layer> InputLayer::from_config(const json& c) {
  const char* key = c.contains("batch_input_shape") && !c["batch_input_shape"].is_null() ? "batch_input_shape"
                                                                                         : "batch_shape";
  if (!c.contains(key) || !c[key].is_array() || c[key].empty())
    throw ValueError("InputLayer config needs batch_input_shape (or batch_shape): " + c.dump());
  Shape shape;
  for (std::size_t i = 1; i < c[key].size(); ++i) shape.push_back(c[key][i].is_null() ? -1 : c[key][i].get<std::int64_t>());
  const auto batch = c[key][0].is_null() ? -1 : c[key][0].get<std::int64_t>();
  return std::make_shared<InputLayer>(shape, InputLayerOptions{.name = config::value_or(c, "name", std::string()),
                                                               .batch_size = batch,
                                                               .dtype = config::dtype_policy_name(c.value("dtype", json("float32")))});
}

KERAS_REGISTER_LAYER(InputLayer)
}  // namespace keras::layers

namespace keras {

KerasTensor Input(const Shape& shape, InputOptions options) {
  auto layer = std::make_shared<layers::InputLayer>(
      shape, layers::InputLayerOptions{.name = options.name, .batch_size = options.batch_size, .dtype = dtype_name(options.dtype)});
  auto node = std::make_shared<Node>(Node{layer, {}, {*layer->batch_input_shape()}});
  return KerasTensor(node->output_shapes[0], options.dtype, node);
}

namespace {
LayerPtr input_layer_of(const KerasTensor& input) {
  if (!input.defined() || !dynamic_cast<layers::InputLayer*>(input.node()->layer.get()))
    throw ValueError("Only a KerasTensor made by Input(...) can stand in a list of layers");
  return input.node()->layer;
}
}  // namespace

LayerRef::LayerRef(const KerasTensor& input) : Ref<Layer>(input_layer_of(input)) {}

}  // namespace keras
