#include "layers/pooling/base_pooling.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"

namespace keras::layers {
namespace {

// Keras writes tuples as lists; an int means the same value on every axis; null keeps `fallback`.
Sizes read_sizes(const json& c, const char* key, std::int64_t rank, Sizes fallback, const std::string& cls) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  const json& v = c[key];
  if (v.is_number_integer()) return Sizes(rank, v.get<std::int64_t>());
  if (!v.is_array() || static_cast<std::int64_t>(v.size()) != rank)
    throw ValueError(fmt::format("{}: `{}` must be {} integers, got {}", cls, key, rank, v.dump()));
  return v.get<Sizes>();
}

}  // namespace

BasePooling::BasePooling(Kind kind, const std::string& class_name, PoolingSpec spec)
    : Layer(spec.name, to_snake_case(class_name)), kind_(kind), cls_(class_name), spec_(std::move(spec)) {
  if (spec_.strides.empty()) spec_.strides = spec_.pool_size;
  const auto bad = [&](const Sizes& s) {
    if (static_cast<std::int64_t>(s.size()) != spec_.rank) return true;
    for (auto v : s)
      if (v <= 0) return true;
    return false;
  };
  if (bad(spec_.pool_size) || bad(spec_.strides))
    throw ValueError(fmt::format("{}: `pool_size` and `strides` must be {} positive integers. Received: pool_size={}, "
                                 "strides={}", cls_, spec_.rank, ops::sizes_str(spec_.pool_size),
                                 ops::sizes_str(spec_.strides)));
  spec_.padding = ops::normalize_padding(spec_.padding, cls_);
  set_input_shape(spec_.input_shape);
}

void BasePooling::check_rank(const Shape& shape) const {
  if (static_cast<std::int64_t>(shape.size()) != spec_.rank + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={} "
                                 "(batch, {}channels), found ndim={}. Full shape received: {}", name(), cls_,
                                 spec_.rank + 2, spec_.rank == 1 ? "steps, " : spec_.rank == 2 ? "height, width, "
                                 : "depth, height, width, ", shape.size(), shape_str(shape)));
}

Tensor BasePooling::call(const Tensor& inputs, bool) {
  check_rank(inputs.shape());
  return kind_ == Kind::max ? ops::max_pool(inputs, spec_.pool_size, spec_.strides, spec_.padding)
                            : ops::avg_pool(inputs, spec_.pool_size, spec_.strides, spec_.padding);
}

Shape BasePooling::compute_output_shape(const Shape& s) const {
  check_rank(s);
  Shape out = s;
  for (std::int64_t i = 0; i < spec_.rank; ++i) {
    out[i + 1] = ops::conv_output_length(s[i + 1], spec_.pool_size[i], spec_.strides[i], spec_.padding);
    if (out[i + 1] == 0)
      throw ValueError(fmt::format("Layer \"{}\" ({}): the pool size {} does not fit input of shape {} under "
                                   "\"valid\" padding", name(), cls_, ops::sizes_str(spec_.pool_size), shape_str(s)));
  }
  return out;
}

json BasePooling::get_config() const {
  json c = Layer::get_config();
  c["pool_size"] = spec_.pool_size;
  c["padding"] = spec_.padding;
  c["strides"] = spec_.strides;
  c["data_format"] = "channels_last";
  return c;
}

PoolingSpec BasePooling::read_config(const json& c, std::int64_t rank, const std::string& cls) {
  if (c.value("data_format", "channels_last") != "channels_last")
    throw ValueError(cls + ": only data_format=\"channels_last\" is supported, got " + c["data_format"].dump());
  return {.rank = rank,
          .pool_size = read_sizes(c, "pool_size", rank, Sizes(rank, 2), cls),
          .strides = read_sizes(c, "strides", rank, {}, cls),
          .padding = c.value("padding", "valid"),
          .name = c.value("name", "")};
}

}  // namespace keras::layers
