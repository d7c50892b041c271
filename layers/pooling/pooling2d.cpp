#include "layers/pooling/pooling2d.hpp"

#include <fmt/format.h>

namespace keras::layers {
namespace {

// Keras writes (h, w) pairs as lists; an int means the same value on both axes; null keeps `fallback`.
Size2 read_pair(const json& c, const char* key, Size2 fallback, const std::string& cls) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const json& v = c[key];
  if (v.is_number_integer()) return {v.get<std::int64_t>(), v.get<std::int64_t>()};
  if (!v.is_array() || v.size() != 2)
    throw ValueError(cls + ": `" + key + "` must be two integers, got " + v.dump());
  return {v[0].get<std::int64_t>(), v[1].get<std::int64_t>()};
}

}  // namespace

Pooling2D::Pooling2D(Kind kind, const std::string& class_name, Size2 pool_size, Pooling2DOptions options)
    : Layer(options.name, to_snake_case(class_name)), kind_(kind), pool_size_(pool_size), options_(std::move(options)) {
  if (options_.strides == Size2{0, 0}) options_.strides = pool_size_;
  if (pool_size_[0] <= 0 || pool_size_[1] <= 0 || options_.strides[0] <= 0 || options_.strides[1] <= 0)
    throw ValueError(class_name + ": `pool_size` and `strides` must be positive integers. Received: pool_size=" +
                     ops::size2_str(pool_size_) + ", strides=" + ops::size2_str(options_.strides));
  options_.padding = ops::normalize_padding(options_.padding, class_name);
  set_input_shape(options_.input_shape);
}

void Pooling2D::check_rank(const Shape& shape) const {
  if (shape.size() != 4)
    throw ValueError("Input 0 of layer \"" + name() + "\" (" + class_name() +
                     ") is incompatible with the layer: expected ndim=4 (batch, height, width, channels), found ndim=" +
                     std::to_string(shape.size()) + ". Full shape received: " + shape_str(shape));
}

Tensor Pooling2D::call(const Tensor& inputs, bool) {
  check_rank(inputs.shape());
  return kind_ == Kind::max ? ops::max_pool2d(inputs, pool_size_, options_.strides, options_.padding)
                            : ops::avg_pool2d(inputs, pool_size_, options_.strides, options_.padding);
}

Shape Pooling2D::compute_output_shape(const Shape& s) const {
  check_rank(s);
  Shape out = s;
  for (int i = 0; i < 2; ++i) {
    out[i + 1] = ops::conv_output_length(s[i + 1], pool_size_[i], options_.strides[i], options_.padding);
    if (out[i + 1] == 0)
      throw ValueError("Layer \"" + name() + "\" (" + class_name() + "): the pool size " + ops::size2_str(pool_size_) +
                       " does not fit input of shape " + shape_str(s) + " under \"valid\" padding");
  }
  return out;
}

json Pooling2D::get_config() const {
  json c = Layer::get_config();
  c["pool_size"] = pool_size_;
  c["padding"] = options_.padding;
  c["strides"] = options_.strides;
  c["data_format"] = "channels_last";
  return c;
}

std::pair<Size2, Pooling2DOptions> Pooling2D::read_config(const json& c, const std::string& cls) {
  if (c.value("data_format", "channels_last") != "channels_last")
    throw ValueError(cls + ": only data_format=\"channels_last\" is supported, got " + c["data_format"].dump());
  Pooling2DOptions o;
  o.name = c.value("name", "");
  o.padding = c.value("padding", "valid");
  o.strides = read_pair(c, "strides", {0, 0}, cls);
  return {read_pair(c, "pool_size", {2, 2}, cls), o};
}

}  // namespace keras::layers
