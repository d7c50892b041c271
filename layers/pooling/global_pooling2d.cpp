#include "layers/pooling/global_pooling2d.hpp"

#include "keras/ops/math.hpp"

namespace keras::layers {
namespace {

void check_rank(const Shape& shape, const Layer& layer) {
  if (shape.size() != 4)
    throw ValueError("Input 0 of layer \"" + layer.name() + "\" (" + layer.class_name() +
                     ") is incompatible with the layer: expected ndim=4 (batch, height, width, channels), found ndim=" +
                     std::to_string(shape.size()) + ". Full shape received: " + shape_str(shape));
}

Shape pooled_shape(const Shape& s, bool keepdims, const Layer& layer) {
  check_rank(s, layer);
  return keepdims ? Shape{s[0], 1, 1, s[3]} : Shape{s[0], s[3]};
}

json config(json c, bool keepdims) {
  c["data_format"] = "channels_last";
  c["keepdims"] = keepdims;
  return c;
}

GlobalPooling2DOptions read_options(const json& c, const char* cls) {
  if (c.value("data_format", "channels_last") != "channels_last")
    throw ValueError(std::string(cls) + ": only data_format=\"channels_last\" is supported, got " +
                     c["data_format"].dump());
  return {.keepdims = c.value("keepdims", false), .name = c.value("name", "")};
}

}  // namespace

GlobalAveragePooling2D::GlobalAveragePooling2D(GlobalPooling2DOptions options)
    : Layer(options.name, "global_average_pooling2d"), keepdims_(options.keepdims) {
  set_input_shape(options.input_shape);
}

Tensor GlobalAveragePooling2D::call(const Tensor& inputs, bool) {
  check_rank(inputs.shape(), *this);
  return ops::mean(inputs, {1, 2}, keepdims_);
}

Shape GlobalAveragePooling2D::compute_output_shape(const Shape& s) const { return pooled_shape(s, keepdims_, *this); }

json GlobalAveragePooling2D::get_config() const { return config(Layer::get_config(), keepdims_); }

std::shared_ptr<Layer> GlobalAveragePooling2D::from_config(const json& c) {
  auto layer = std::make_shared<GlobalAveragePooling2D>(read_options(c, "GlobalAveragePooling2D"));
  layer->read_base_config(c);
  return layer;
}

GlobalMaxPooling2D::GlobalMaxPooling2D(GlobalPooling2DOptions options)
    : Layer(options.name, "global_max_pooling2d"), keepdims_(options.keepdims) {
  set_input_shape(options.input_shape);
}

Tensor GlobalMaxPooling2D::call(const Tensor& inputs, bool) {
  check_rank(inputs.shape(), *this);
  return ops::max(inputs, {1, 2}, keepdims_);
}

Shape GlobalMaxPooling2D::compute_output_shape(const Shape& s) const { return pooled_shape(s, keepdims_, *this); }

json GlobalMaxPooling2D::get_config() const { return config(Layer::get_config(), keepdims_); }

std::shared_ptr<Layer> GlobalMaxPooling2D::from_config(const json& c) {
  auto layer = std::make_shared<GlobalMaxPooling2D>(read_options(c, "GlobalMaxPooling2D"));
  layer->read_base_config(c);
  return layer;
}

namespace {
const bool registered_avg = register_class<Layer, GlobalAveragePooling2D>("GlobalAveragePooling2D");
const bool registered_max = register_class<Layer, GlobalMaxPooling2D>("GlobalMaxPooling2D");
}  // namespace

}  // namespace keras::layers
